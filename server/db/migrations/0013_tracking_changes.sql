CREATE TABLE "tracking_changes" (
	"xid" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	"order_id" text NOT NULL,
	"changed_at" timestamp with time zone DEFAULT clock_timestamp() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "tracking_changes_xid_idx" ON "tracking_changes" USING btree ("xid");--> statement-breakpoint
-- Which orders changed, and in which transaction (docs/decisions/0016): the tracking search index
-- of each server process reads the rows with an xid at or past the oldest transaction that was
-- still running when it last looked, so a transaction that commits late is never missed.
-- TG_ARGV[0] names the column holding the order ('id' on orders, 'order_id' on order_items).
CREATE FUNCTION tracking_changes_record() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    INSERT INTO tracking_changes (order_id) VALUES ('*');
  ELSIF TG_OP = 'UPDATE' AND TG_ARGV[0] = 'id' THEN
    -- Orders whose columns read by the index changed (or whose id did). An update of the item
    -- summary alone (item_count, arrived_items, action_point_items) is the order_items triggers'
    -- doing: their own statement records the order.
    INSERT INTO tracking_changes (order_id)
    SELECT n.id FROM new_rows n LEFT JOIN old_rows o ON o.id = n.id
    WHERE o.id IS NULL
      OR (n.updated_at, n.plant, n.work_center, n.planner_group, n.ship_to_party, n.user_email, n.service_order, n.equipment_code, n.equipment_description, n.destination)
         IS DISTINCT FROM (o.updated_at, o.plant, o.work_center, o.planner_group, o.ship_to_party, o.user_email, o.service_order, o.equipment_code, o.equipment_description, o.destination)
    UNION
    SELECT o.id FROM old_rows o LEFT JOIN new_rows n ON n.id = o.id WHERE n.id IS NULL;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO tracking_changes (order_id) SELECT order_id FROM new_rows UNION SELECT order_id FROM old_rows;
  ELSIF TG_ARGV[0] = 'id' THEN
    INSERT INTO tracking_changes (order_id) SELECT DISTINCT id FROM changed_rows;
  ELSE
    INSERT INTO tracking_changes (order_id) SELECT DISTINCT order_id FROM changed_rows;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_tracking_changes_insert AFTER INSERT ON orders
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION tracking_changes_record('id');
--> statement-breakpoint
CREATE TRIGGER orders_tracking_changes_delete AFTER DELETE ON orders
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION tracking_changes_record('id');
--> statement-breakpoint
CREATE TRIGGER orders_tracking_changes_update AFTER UPDATE ON orders
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION tracking_changes_record('id');
--> statement-breakpoint
CREATE TRIGGER orders_tracking_changes_truncate AFTER TRUNCATE ON orders
  FOR EACH STATEMENT EXECUTE FUNCTION tracking_changes_record('id');
--> statement-breakpoint
CREATE TRIGGER order_items_tracking_changes_insert AFTER INSERT ON order_items
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION tracking_changes_record('order_id');
--> statement-breakpoint
CREATE TRIGGER order_items_tracking_changes_delete AFTER DELETE ON order_items
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION tracking_changes_record('order_id');
--> statement-breakpoint
CREATE TRIGGER order_items_tracking_changes_update AFTER UPDATE ON order_items
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION tracking_changes_record('order_id');
--> statement-breakpoint
CREATE TRIGGER order_items_tracking_changes_truncate AFTER TRUNCATE ON order_items
  FOR EACH STATEMENT EXECUTE FUNCTION tracking_changes_record('order_id');
