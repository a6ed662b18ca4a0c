-- orders.item_count / arrived_items / action_point_items (migration 0006) follow order_items by
-- DELTAS instead of recounts. A recount reads the items from the statement's snapshot; on
-- PostgreSQL a second transaction writing items of the same order waits for the first one's row
-- lock on `orders`, then keeps the count it had computed without the first one's items: the
-- summary (and order_group_counts / order_day_counts after it) went wrong until the order's items
-- were touched again. `SET x = x + delta` is evaluated again on the row version it finally
-- updates, so concurrent statements compose (like order_counts_add and the stock triggers).
CREATE OR REPLACE FUNCTION order_item_summary_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- +1 for each new row, -1 for each old one (an UPDATE is both), per order.
  WITH changed AS (
    SELECT n.order_id, 1 AS sign,
      (coalesce(n.delivery_status, '') = 'Delivered' OR n.goods_receipt_posted_at IS NOT NULL OR coalesce(n.purchase_order_goods_receipt_quantity, 0) > 0) AS arrived,
      coalesce(n.delivery_status IN ('ToBePickedUp', 'At access point'), false) AS action_point
    FROM new_rows n
    UNION ALL
    SELECT o.order_id, -1 AS sign,
      (coalesce(o.delivery_status, '') = 'Delivered' OR o.goods_receipt_posted_at IS NOT NULL OR coalesce(o.purchase_order_goods_receipt_quantity, 0) > 0),
      coalesce(o.delivery_status IN ('ToBePickedUp', 'At access point'), false)
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
-- INSERT and DELETE: one function, the rows under one name (REFERENCING … AS changed_rows) and
-- the sign as the trigger's argument (+1 inserted, -1 deleted).
DROP TRIGGER order_item_summary_insert ON order_items;--> statement-breakpoint
DROP TRIGGER order_item_summary_delete ON order_items;--> statement-breakpoint
CREATE FUNCTION order_item_summary_add_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign int := TG_ARGV[0]::int;
BEGIN
  UPDATE orders o
  SET item_count = o.item_count + sign * d.n, arrived_items = o.arrived_items + sign * d.a, action_point_items = o.action_point_items + sign * d.p
  FROM (
    SELECT order_id, count(*)::int AS n,
      (count(*) FILTER (WHERE coalesce(delivery_status, '') = 'Delivered' OR goods_receipt_posted_at IS NOT NULL OR coalesce(purchase_order_goods_receipt_quantity, 0) > 0))::int AS a,
      (count(*) FILTER (WHERE delivery_status IN ('ToBePickedUp', 'At access point')))::int AS p
    FROM changed_rows GROUP BY order_id
  ) d
  WHERE o.id = d.order_id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER order_item_summary_insert AFTER INSERT ON order_items
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION order_item_summary_add_rows('1');
--> statement-breakpoint
CREATE TRIGGER order_item_summary_delete AFTER DELETE ON order_items
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION order_item_summary_add_rows('-1');
--> statement-breakpoint
-- Summaries written by a recount that lost a concurrent change are put right once.
SELECT order_item_summary_refresh(ARRAY(SELECT id FROM orders));
