-- Ingestion at PostgreSQL speed (issue #16, docs/decisions/0036, addendum 2026-11-25).
-- A file of new orders wrote each order three times: inserted with its own text, then rewritten by
-- the item summary trigger, then by the search-text trigger, each a new row version through every
-- index of `orders` (three of them GIN, whose entries are most of the cost). Now:
-- - items inserted or deleted: ONE trigger per statement locks the orders, reads their items
--   again and writes the summary and the search text together, only where they differ (so an
--   order already written with its final values is read, not written);
-- - an order may be inserted with the text of its items already (the ingestion of new orders does,
--   from its staging table): the insert trigger keeps a text that begins with the order's own.
-- The texts come from one place: order_own_search_text and order_item_search_text (the SQL twins
-- of searchTextOfOrder and searchTextOfItem in server/db/schema.ts), not lower-cased.
CREATE FUNCTION order_own_search_text(text, text, text, text)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce($1, '') || E'\x1f' || coalesce($2, '') || E'\x1f' || coalesce($3, '') || E'\x1f' || coalesce($4, '')
$$;
--> statement-breakpoint
-- Arguments: material code and description, reservation, purchase, sales and delivery order, tracking number.
CREATE FUNCTION order_item_search_text(text, text, text, text, text, text, text)
RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT E'\x1f' || coalesce($1, '') || E'\x1f' || coalesce($2, '') || E'\x1f' || coalesce($3, '') || E'\x1f' || coalesce($4, '')
    || E'\x1f' || coalesce($5, '') || E'\x1f' || coalesce($6, '') || E'\x1f' || coalesce($7, '')
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION order_search_text(text, text, text, text)
RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT lower(order_own_search_text($1, $2, $3, $4)
    || coalesce((SELECT string_agg(order_item_search_text(i.material_code, i.material_description, i.reservation_doc_number, i.purchase_order_doc_number,
         i.sales_order_doc_number, i.delivery_order_doc_number, i.tracking_number), '' ORDER BY i.line_number, i.id)
       FROM order_items i WHERE i.order_id = $1), ''))
$$;
--> statement-breakpoint
-- An inserted order has no items yet (they reference it), so its text is its own — unless the
-- writer gave the text of the items it inserts next in the same transaction (it must begin with the
-- order's own text); the items' insert trigger below reads them and corrects the text if it differs.
CREATE OR REPLACE FUNCTION orders_search_text_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  own text;
BEGIN
  IF TG_OP = 'INSERT' THEN
    own := lower(order_own_search_text(NEW.id, NEW.equipment_code, NEW.equipment_description, NEW.destination));
    IF NEW.search_text IS NULL OR NOT (NEW.search_text = own OR starts_with(NEW.search_text, own || E'\x1f')) THEN
      NEW.search_text := own;
    END IF;
  ELSE
    NEW.search_text := order_search_text(NEW.id, NEW.equipment_code, NEW.equipment_description, NEW.destination);
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
-- The orders named get their item summary (item_is_arrived, item_is_action_point) and search text
-- from their items as they are, in one write, only where a value differs. The rows are locked
-- first and the items read after (READ COMMITTED: the next statement sees what committed
-- meanwhile), so two transactions writing items of one order at once leave the values of both.
CREATE FUNCTION order_items_rollup_refresh(touched text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM orders WHERE id = ANY (touched) ORDER BY id FOR UPDATE;
  UPDATE orders o SET item_count = s.n, arrived_items = s.a, action_point_items = s.p, search_text = s.text
  FROM (
    SELECT t.id,
      count(i.id)::int AS n,
      (count(i.id) FILTER (WHERE item_is_arrived(i.delivery_status, i.goods_receipt_posted_at, i.purchase_order_goods_receipt_quantity)))::int AS a,
      (count(i.id) FILTER (WHERE item_is_action_point(i.delivery_status)))::int AS p,
      lower(order_own_search_text(t.id, t.equipment_code, t.equipment_description, t.destination)
        || coalesce(string_agg(order_item_search_text(i.material_code, i.material_description, i.reservation_doc_number, i.purchase_order_doc_number,
             i.sales_order_doc_number, i.delivery_order_doc_number, i.tracking_number), '' ORDER BY i.line_number, i.id) FILTER (WHERE i.id IS NOT NULL), '')) AS text
    FROM unnest(touched) AS x(id)
    JOIN orders t ON t.id = x.id
    LEFT JOIN order_items i ON i.order_id = t.id
    GROUP BY t.id
  ) s
  WHERE o.id = s.id AND (o.item_count, o.arrived_items, o.action_point_items, o.search_text) IS DISTINCT FROM (s.n, s.a, s.p, s.text);
END $$;
--> statement-breakpoint
CREATE FUNCTION order_items_rollup_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM order_items_rollup_refresh(array(SELECT DISTINCT order_id FROM changed_rows));
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER order_item_summary_insert ON order_items;--> statement-breakpoint
DROP TRIGGER order_item_summary_delete ON order_items;--> statement-breakpoint
DROP TRIGGER order_items_search_text_insert ON order_items;--> statement-breakpoint
DROP TRIGGER order_items_search_text_delete ON order_items;--> statement-breakpoint
DROP FUNCTION order_item_summary_add_rows();--> statement-breakpoint
DROP FUNCTION order_items_search_text_rows();--> statement-breakpoint
CREATE TRIGGER order_items_rollup_insert AFTER INSERT ON order_items
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION order_items_rollup_rows();
--> statement-breakpoint
CREATE TRIGGER order_items_rollup_delete AFTER DELETE ON order_items
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION order_items_rollup_rows();
