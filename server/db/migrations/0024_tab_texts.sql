-- #16 (docs/decisions/0041): a single free term's tab counts read the order row alone. An order
-- belongs to a tab when one of its items matching the term is in the tab; for an order with items
-- both in and out of the tab, that meant reading its items one by one ("door" at scale 500: ~4,300
-- item reads per call over the arrived, incoming and action-point counts). Such an order now holds
-- the search text of its items in each tab (the same searchTextOfItem / order_item_search_text,
-- lower-cased, in line order); every other order has NULL there, as its item summary answers.
-- order_items_rollup_refresh keeps them with the summary and the search text, in the same write.
ALTER TABLE "orders" ADD COLUMN "arrived_text" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "incoming_text" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "action_point_text" text;--> statement-breakpoint
CREATE OR REPLACE FUNCTION order_items_rollup_refresh(touched text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM orders WHERE id = ANY (touched) ORDER BY id FOR UPDATE;
  UPDATE orders o SET item_count = s.n, arrived_items = s.a, action_point_items = s.p, search_text = s.text,
    arrived_text = s.arrived, incoming_text = s.incoming, action_point_text = s.action_point
  FROM (
    SELECT r.id, r.n, r.a, r.p, r.text,
      CASE WHEN r.a > 0 AND r.a < r.n THEN r.arrived END AS arrived,
      CASE WHEN r.a > 0 AND r.a < r.n THEN r.incoming END AS incoming,
      CASE WHEN r.p > 0 AND r.p < r.n THEN r.action_point END AS action_point
    FROM (
      SELECT t.id,
        count(i.id)::int AS n,
        (count(i.id) FILTER (WHERE item_is_arrived(i.delivery_status, i.goods_receipt_posted_at, i.purchase_order_goods_receipt_quantity)))::int AS a,
        (count(i.id) FILTER (WHERE item_is_action_point(i.delivery_status)))::int AS p,
        lower(order_own_search_text(t.id, t.equipment_code, t.equipment_description, t.destination)
          || coalesce(string_agg(order_item_search_text(i.material_code, i.material_description, i.reservation_doc_number, i.purchase_order_doc_number,
               i.sales_order_doc_number, i.delivery_order_doc_number, i.tracking_number), '' ORDER BY i.line_number, i.id) FILTER (WHERE i.id IS NOT NULL), '')) AS text,
        lower(string_agg(order_item_search_text(i.material_code, i.material_description, i.reservation_doc_number, i.purchase_order_doc_number,
             i.sales_order_doc_number, i.delivery_order_doc_number, i.tracking_number), '' ORDER BY i.line_number, i.id)
           FILTER (WHERE i.id IS NOT NULL AND item_is_arrived(i.delivery_status, i.goods_receipt_posted_at, i.purchase_order_goods_receipt_quantity))) AS arrived,
        lower(string_agg(order_item_search_text(i.material_code, i.material_description, i.reservation_doc_number, i.purchase_order_doc_number,
             i.sales_order_doc_number, i.delivery_order_doc_number, i.tracking_number), '' ORDER BY i.line_number, i.id)
           FILTER (WHERE i.id IS NOT NULL AND NOT item_is_arrived(i.delivery_status, i.goods_receipt_posted_at, i.purchase_order_goods_receipt_quantity))) AS incoming,
        lower(string_agg(order_item_search_text(i.material_code, i.material_description, i.reservation_doc_number, i.purchase_order_doc_number,
             i.sales_order_doc_number, i.delivery_order_doc_number, i.tracking_number), '' ORDER BY i.line_number, i.id)
           FILTER (WHERE i.id IS NOT NULL AND item_is_action_point(i.delivery_status))) AS action_point
      FROM unnest(touched) AS x(id)
      JOIN orders t ON t.id = x.id
      LEFT JOIN order_items i ON i.order_id = t.id
      GROUP BY t.id
    ) r
  ) s
  WHERE o.id = s.id AND (o.item_count, o.arrived_items, o.action_point_items, o.search_text, o.arrived_text, o.incoming_text, o.action_point_text)
    IS DISTINCT FROM (s.n, s.a, s.p, s.text, s.arrived, s.incoming, s.action_point);
END $$;
--> statement-breakpoint
-- The orders that exist: only those with a tab partly theirs get a value (38 % of the orders at
-- scale 500, about 3 minutes there: each is a new row version through the orders' indexes).
SELECT order_items_rollup_refresh(array(SELECT id FROM orders
  WHERE (arrived_items > 0 AND arrived_items < item_count) OR (action_point_items > 0 AND action_point_items < item_count)));
