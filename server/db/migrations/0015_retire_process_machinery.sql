DROP TABLE "order_day_counts" CASCADE;--> statement-breakpoint
DROP TABLE "order_group_counts" CASCADE;--> statement-breakpoint
DROP TABLE "stock_location_materials" CASCADE;--> statement-breakpoint
DROP TABLE "stock_material_bits" CASCADE;--> statement-breakpoint
DROP TABLE "tracking_changes" CASCADE;--> statement-breakpoint
DROP INDEX "orders_updated_idx";--> statement-breakpoint
CREATE INDEX "order_items_sales_order_lower_idx" ON "order_items" USING btree (lower("sales_order_doc_number"));--> statement-breakpoint
CREATE INDEX "order_items_delivery_order_lower_idx" ON "order_items" USING btree (lower("delivery_order_doc_number"));--> statement-breakpoint
CREATE INDEX "order_items_delivery_date_idx" ON "order_items" USING btree ("delivery_date");--> statement-breakpoint
CREATE INDEX "order_items_material_description_trgm_idx" ON "order_items" USING gin ("material_description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "orders_action_point_idx" ON "orders" USING btree ("updated_at","id") WHERE action_point_items > 0;--> statement-breakpoint
CREATE INDEX "orders_equipment_description_trgm_idx" ON "orders" USING gin ("equipment_description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "stock_items_storage_location_idx" ON "stock_items" USING btree ("storage_location");--> statement-breakpoint
-- Stateless replicas on PostgreSQL (issue #16, docs/decisions/0021, 0022). The per-process
-- machinery is retired: the tracking search index's change log (0016), the NOTIFY triggers of the
-- response caches (0014), the order-count tables of the day walk (0013) and the stock bit strings
-- (0012). What stays in the database — the orders' item summary, stock_location_counts — is kept
-- by triggers that read the rules from the SQL functions below (one home per rule, decision 0022),
-- each the twin of a TypeScript function in src/domain (tests/server/rule-twins.test.ts).
DROP TRIGGER IF EXISTS orders_changed ON orders;--> statement-breakpoint
DROP TRIGGER IF EXISTS order_items_changed ON order_items;--> statement-breakpoint
DROP TRIGGER IF EXISTS parcel_events_changed ON parcel_events;--> statement-breakpoint
DROP TRIGGER IF EXISTS users_changed ON users;--> statement-breakpoint
DROP TRIGGER IF EXISTS users_updated ON users;--> statement-breakpoint
DROP TRIGGER IF EXISTS user_identities_changed ON user_identities;--> statement-breakpoint
DROP TRIGGER IF EXISTS user_grants_changed ON user_grants;--> statement-breakpoint
DROP TRIGGER IF EXISTS user_attachments_changed ON user_attachments;--> statement-breakpoint
DROP FUNCTION IF EXISTS partstrack_notify_change();--> statement-breakpoint
DROP FUNCTION IF EXISTS partstrack_notify_users_update();--> statement-breakpoint
DROP TRIGGER IF EXISTS orders_tracking_changes_insert ON orders;--> statement-breakpoint
DROP TRIGGER IF EXISTS orders_tracking_changes_delete ON orders;--> statement-breakpoint
DROP TRIGGER IF EXISTS orders_tracking_changes_update ON orders;--> statement-breakpoint
DROP TRIGGER IF EXISTS orders_tracking_changes_truncate ON orders;--> statement-breakpoint
DROP TRIGGER IF EXISTS order_items_tracking_changes_insert ON order_items;--> statement-breakpoint
DROP TRIGGER IF EXISTS order_items_tracking_changes_delete ON order_items;--> statement-breakpoint
DROP TRIGGER IF EXISTS order_items_tracking_changes_update ON order_items;--> statement-breakpoint
DROP TRIGGER IF EXISTS order_items_tracking_changes_truncate ON order_items;--> statement-breakpoint
DROP FUNCTION IF EXISTS tracking_changes_record();--> statement-breakpoint
DROP TRIGGER IF EXISTS order_counts_insert ON orders;--> statement-breakpoint
DROP TRIGGER IF EXISTS order_counts_delete ON orders;--> statement-breakpoint
DROP TRIGGER IF EXISTS order_counts_update ON orders;--> statement-breakpoint
DROP TRIGGER IF EXISTS order_counts_truncate ON orders;--> statement-breakpoint
DROP FUNCTION IF EXISTS order_counts_apply();--> statement-breakpoint
DROP FUNCTION IF EXISTS order_counts_truncate();--> statement-breakpoint
DROP FUNCTION IF EXISTS order_counts_add(jsonb);--> statement-breakpoint
DROP TRIGGER IF EXISTS stock_location_materials_insert ON stock_items;--> statement-breakpoint
DROP TRIGGER IF EXISTS stock_location_materials_delete ON stock_items;--> statement-breakpoint
DROP TRIGGER IF EXISTS stock_location_materials_update ON stock_items;--> statement-breakpoint
DROP TRIGGER IF EXISTS stock_location_materials_truncate ON stock_items;--> statement-breakpoint
DROP FUNCTION IF EXISTS stock_location_materials_apply();--> statement-breakpoint
DROP FUNCTION IF EXISTS stock_location_materials_truncate();--> statement-breakpoint
DROP FUNCTION IF EXISTS stock_location_materials_change(text[], text[], text[], boolean[], boolean[]);--> statement-breakpoint
DROP FUNCTION IF EXISTS stock_bits_apply(varbit, integer[], integer[]);--> statement-breakpoint
-- §4 "arrived": the carrier delivered it, or a goods receipt is posted (twin: isArrived).
CREATE FUNCTION item_is_arrived(delivery_status text, goods_receipt_posted_at timestamptz, goods_receipt_quantity numeric)
RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(delivery_status, '') = 'Delivered' OR goods_receipt_posted_at IS NOT NULL OR coalesce(goods_receipt_quantity, 0) > 0
$$;
--> statement-breakpoint
-- A parcel waits at an access point: the mechanic has to pick it up (twin: isActionPoint).
CREATE FUNCTION item_is_action_point(delivery_status text)
RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(delivery_status IN ('ToBePickedUp', 'At access point'), false)
$$;
--> statement-breakpoint
-- §3 total quantity: the sum of the five counts, null when any is null (twin: totalQuantity).
CREATE FUNCTION stock_total(unrestricted numeric, quality_inspection numeric, blocked numeric, restricted numeric, transfer numeric)
RETURNS numeric LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT unrestricted + quality_inspection + blocked + restricted + transfer
$$;
--> statement-breakpoint
-- The plants that show stock rows with a total of 0 in searches (twin: zeroStockPlants).
CREATE FUNCTION zero_stock_plants() RETURNS text[] LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(plant ORDER BY plant), '{}') FROM allowed_plants WHERE parameter = 'show_zero_stock_material_plants'
$$;
--> statement-breakpoint
-- Does this plant show zero stock (twin: isZeroStockPlant)? Lists pass zero_stock_plants() read once.
CREATE FUNCTION is_zero_stock_plant(plant text, zero_plants text[] DEFAULT NULL) RETURNS boolean LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT plant = ANY (coalesce(zero_plants, zero_stock_plants()))
$$;
--> statement-breakpoint
-- §5: a search hides stock rows whose total is 0, except in plants that show zero stock; a row
-- whose total is unknown (a count missing) is shown (twin: isShownInSearch).
CREATE FUNCTION stock_row_shown(total numeric, zero_stock_plant boolean) RETURNS boolean LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(total <> 0, true) OR coalesce(zero_stock_plant, false)
$$;
--> statement-breakpoint
-- The orders' item summary reads the rules from the functions above (was: three copies of them).
CREATE OR REPLACE FUNCTION order_item_summary_refresh(touched text[]) RETURNS void LANGUAGE sql AS $$
  UPDATE orders o SET item_count = s.n, arrived_items = s.a, action_point_items = s.p
  FROM (
    SELECT t.id,
      count(i.id)::int AS n,
      (count(i.id) FILTER (WHERE item_is_arrived(i.delivery_status, i.goods_receipt_posted_at, i.purchase_order_goods_receipt_quantity)))::int AS a,
      (count(i.id) FILTER (WHERE item_is_action_point(i.delivery_status)))::int AS p
    FROM unnest(touched) AS t(id) LEFT JOIN order_items i ON i.order_id = t.id
    GROUP BY t.id
  ) s
  WHERE o.id = s.id AND (o.item_count, o.arrived_items, o.action_point_items) IS DISTINCT FROM (s.n, s.a, s.p);
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION order_item_summary_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- +1 for each new row, -1 for each old one (an UPDATE is both), per order.
  WITH changed AS (
    SELECT n.order_id, 1 AS sign,
      item_is_arrived(n.delivery_status, n.goods_receipt_posted_at, n.purchase_order_goods_receipt_quantity) AS arrived,
      item_is_action_point(n.delivery_status) AS action_point
    FROM new_rows n
    UNION ALL
    SELECT o.order_id, -1 AS sign,
      item_is_arrived(o.delivery_status, o.goods_receipt_posted_at, o.purchase_order_goods_receipt_quantity),
      item_is_action_point(o.delivery_status)
    FROM old_rows o
  ), delta AS (
    SELECT order_id,
      sum(sign)::int AS n,
      (sum(sign) FILTER (WHERE arrived))::int AS a,
      (sum(sign) FILTER (WHERE action_point))::int AS p
    FROM changed
    GROUP BY order_id
  )
  UPDATE orders o
  SET item_count = o.item_count + d.n,
      arrived_items = o.arrived_items + coalesce(d.a, 0),
      action_point_items = o.action_point_items + coalesce(d.p, 0)
  FROM delta d
  WHERE o.id = d.order_id AND (d.n <> 0 OR coalesce(d.a, 0) <> 0 OR coalesce(d.p, 0) <> 0);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION order_item_summary_add_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign int := TG_ARGV[0]::int;
BEGIN
  UPDATE orders o
  SET item_count = o.item_count + sign * d.n, arrived_items = o.arrived_items + sign * d.a, action_point_items = o.action_point_items + sign * d.p
  FROM (
    SELECT order_id, count(*)::int AS n,
      (count(*) FILTER (WHERE item_is_arrived(delivery_status, goods_receipt_posted_at, purchase_order_goods_receipt_quantity)))::int AS a,
      (count(*) FILTER (WHERE item_is_action_point(delivery_status)))::int AS p
    FROM changed_rows GROUP BY order_id
  ) d
  WHERE o.id = d.order_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The tracking list's order (updated_at desc, id desc) with the scope columns and the item
-- summary: a page and a capped tab count read this index alone (index-only scans).
CREATE INDEX "orders_list_idx" ON "orders" USING btree ("updated_at" DESC, "id" DESC)
  INCLUDE ("plant", "work_center", "planner_group", "ship_to_party", "user_email", "item_count", "arrived_items", "action_point_items");--> statement-breakpoint
-- Items of an order with the columns the tabs read (the search's per-order check).
CREATE INDEX "order_items_order_status_idx" ON "order_items" USING btree ("order_id")
  INCLUDE ("delivery_status", "goods_receipt_posted_at", "purchase_order_goods_receipt_quantity");
