CREATE TABLE "order_day_counts" (
	"plant" text NOT NULL,
	"day" date NOT NULL,
	"orders" integer NOT NULL,
	"arrived" integer NOT NULL,
	"incoming" integer NOT NULL,
	"action_point" integer NOT NULL,
	CONSTRAINT "order_day_counts_plant_day_pk" PRIMARY KEY("plant","day")
);
--> statement-breakpoint
CREATE TABLE "order_group_counts" (
	"plant" text NOT NULL,
	"work_center" text NOT NULL,
	"planner_group" text NOT NULL,
	"orders" integer NOT NULL,
	"arrived" integer NOT NULL,
	"incoming" integer NOT NULL,
	"action_point" integer NOT NULL,
	CONSTRAINT "order_group_counts_plant_work_center_planner_group_pk" PRIMARY KEY("plant","work_center","planner_group")
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "item_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "arrived_items" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "action_point_items" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "orders_planner_group_idx" ON "orders" USING btree ("plant","planner_group");--> statement-breakpoint
CREATE INDEX "orders_ship_to_party_idx" ON "orders" USING btree ("ship_to_party");--> statement-breakpoint
CREATE INDEX "orders_updated_idx" ON "orders" USING btree ("updated_at","id");--> statement-breakpoint
-- orders.item_count / arrived_items / action_point_items follow order_items: each statement
-- recounts the orders it touched (arrived is §4's rule, the SQL twin of isArrived).
CREATE FUNCTION order_item_summary_refresh(touched text[]) RETURNS void LANGUAGE sql AS $$
  UPDATE orders o SET item_count = s.n, arrived_items = s.a, action_point_items = s.p
  FROM (
    SELECT t.id,
      count(i.id)::int AS n,
      (count(i.id) FILTER (WHERE coalesce(i.delivery_status, '') = 'Delivered' OR i.goods_receipt_posted_at IS NOT NULL OR coalesce(i.purchase_order_goods_receipt_quantity, 0) > 0))::int AS a,
      (count(i.id) FILTER (WHERE i.delivery_status IN ('ToBePickedUp', 'At access point')))::int AS p
    FROM unnest(touched) AS t(id) LEFT JOIN order_items i ON i.order_id = t.id
    GROUP BY t.id
  ) s
  WHERE o.id = s.id AND (o.item_count, o.arrived_items, o.action_point_items) IS DISTINCT FROM (s.n, s.a, s.p);
$$;
--> statement-breakpoint
CREATE FUNCTION order_item_summary_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM order_item_summary_refresh(ARRAY(SELECT DISTINCT order_id FROM new_rows));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM order_item_summary_refresh(ARRAY(SELECT DISTINCT order_id FROM old_rows));
  ELSE
    PERFORM order_item_summary_refresh(ARRAY(SELECT order_id FROM old_rows UNION SELECT order_id FROM new_rows));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER order_item_summary_insert AFTER INSERT ON order_items
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION order_item_summary_apply();
--> statement-breakpoint
CREATE TRIGGER order_item_summary_delete AFTER DELETE ON order_items
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION order_item_summary_apply();
--> statement-breakpoint
CREATE TRIGGER order_item_summary_update AFTER UPDATE ON order_items
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION order_item_summary_apply();
--> statement-breakpoint
CREATE FUNCTION order_item_summary_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE orders SET item_count = 0, arrived_items = 0, action_point_items = 0 WHERE item_count <> 0 OR arrived_items <> 0 OR action_point_items <> 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER order_item_summary_truncate AFTER TRUNCATE ON order_items
  FOR EACH STATEMENT EXECUTE FUNCTION order_item_summary_truncate();
--> statement-breakpoint
-- order_group_counts and order_day_counts follow orders: one grouped delta per statement
-- (-1 for each old row, +1 for each new row), so a bulk load or a recount is one pass.
CREATE FUNCTION order_counts_add(changes jsonb) RETURNS void LANGUAGE sql AS $$
  WITH c AS (
    SELECT * FROM jsonb_to_recordset(changes) AS x(plant text, work_center text, planner_group text, updated_at timestamptz, item_count int, arrived_items int, action_point_items int, sign int)
  ), g AS (
    INSERT INTO order_group_counts AS t (plant, work_center, planner_group, orders, arrived, incoming, action_point)
      SELECT plant, coalesce(work_center, ''), coalesce(planner_group, ''),
        sum(sign * (item_count > 0)::int), sum(sign * (arrived_items > 0)::int),
        sum(sign * (item_count > arrived_items)::int), sum(sign * (action_point_items > 0)::int)
      FROM c GROUP BY 1, 2, 3
    ON CONFLICT (plant, work_center, planner_group) DO UPDATE SET
      orders = t.orders + excluded.orders, arrived = t.arrived + excluded.arrived,
      incoming = t.incoming + excluded.incoming, action_point = t.action_point + excluded.action_point
  )
  INSERT INTO order_day_counts AS t (plant, day, orders, arrived, incoming, action_point)
    SELECT plant, (updated_at AT TIME ZONE 'UTC')::date,
      sum(sign * (item_count > 0)::int), sum(sign * (arrived_items > 0)::int),
      sum(sign * (item_count > arrived_items)::int), sum(sign * (action_point_items > 0)::int)
    FROM c GROUP BY 1, 2
  ON CONFLICT (plant, day) DO UPDATE SET
    orders = t.orders + excluded.orders, arrived = t.arrived + excluded.arrived,
    incoming = t.incoming + excluded.incoming, action_point = t.action_point + excluded.action_point;
$$;
--> statement-breakpoint
CREATE FUNCTION order_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM order_counts_add((SELECT jsonb_agg(to_jsonb(n) || '{"sign": 1}') FROM new_rows n));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM order_counts_add((SELECT jsonb_agg(to_jsonb(o) || '{"sign": -1}') FROM old_rows o));
  ELSE
    PERFORM order_counts_add((SELECT jsonb_agg(x) FROM (
      SELECT to_jsonb(o) || '{"sign": -1}' AS x FROM old_rows o
      UNION ALL
      SELECT to_jsonb(n) || '{"sign": 1}' FROM new_rows n
    ) moved));
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER order_counts_insert AFTER INSERT ON orders
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION order_counts_apply();
--> statement-breakpoint
CREATE TRIGGER order_counts_delete AFTER DELETE ON orders
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION order_counts_apply();
--> statement-breakpoint
CREATE TRIGGER order_counts_update AFTER UPDATE ON orders
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION order_counts_apply();
--> statement-breakpoint
CREATE FUNCTION order_counts_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM order_group_counts;
  DELETE FROM order_day_counts;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER order_counts_truncate AFTER TRUNCATE ON orders
  FOR EACH STATEMENT EXECUTE FUNCTION order_counts_truncate();
--> statement-breakpoint
-- Existing data: recount every order's items once (the update fills the count tables).
SELECT order_item_summary_refresh(ARRAY(SELECT id FROM orders));
