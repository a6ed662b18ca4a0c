-- #16 (docs/decisions/0041): a single free term's tab counts read the order row alone. An order
-- belongs to a tab when one of its items matching the term is in the tab; for an order with items
-- both in and out of the tab, that meant reading its items one by one ("door" at scale 500: ~4,300
-- item reads per call over the arrived, incoming and action-point counts). Such an order now holds
-- the search text of its items in each tab (the same searchTextOfItem / order_item_search_text,
-- lower-cased, in line order); every other order has NULL there, as its item summary answers.
-- order_items_rollup_refresh keeps them with the summary and the search text, in the same write.
-- A later migration that replaces item_is_arrived() or item_is_action_point() must run
-- order_items_rollup_refresh over every order (the counts and these texts are stored).
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
        (count(i.id) FILTER (WHERE i.arrived))::int AS a,
        (count(i.id) FILTER (WHERE i.action_point))::int AS p,
        lower(order_own_search_text(t.id, t.equipment_code, t.equipment_description, t.destination)
          || coalesce(string_agg(i.text, '' ORDER BY i.line_number, i.id) FILTER (WHERE i.id IS NOT NULL), '')) AS text,
        lower(string_agg(i.text, '' ORDER BY i.line_number, i.id) FILTER (WHERE i.arrived)) AS arrived,
        lower(string_agg(i.text, '' ORDER BY i.line_number, i.id) FILTER (WHERE NOT i.arrived)) AS incoming,
        lower(string_agg(i.text, '' ORDER BY i.line_number, i.id) FILTER (WHERE i.action_point)) AS action_point
      FROM unnest(touched) AS x(id)
      JOIN orders t ON t.id = x.id
      -- Each item's text and tabs once (a row of the join with no item has NULLs: in no FILTER).
      LEFT JOIN (
        SELECT it.order_id, it.id, it.line_number,
          order_item_search_text(it.material_code, it.material_description, it.reservation_doc_number, it.purchase_order_doc_number,
            it.sales_order_doc_number, it.delivery_order_doc_number, it.tracking_number) AS text,
          item_is_arrived(it.delivery_status, it.goods_receipt_posted_at, it.purchase_order_goods_receipt_quantity) AS arrived,
          item_is_action_point(it.delivery_status) AS action_point
        FROM order_items it
      ) i ON i.order_id = t.id
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
