DROP INDEX "order_items_search_trgm_idx";--> statement-breakpoint
DROP INDEX "orders_search_trgm_idx";--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "search_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
-- §5 free text on PostgreSQL without a candidate union (issue #16, docs/decisions/0031): each
-- order carries its own text and its items' in one lower-cased column, search_text, kept here by
-- triggers; one trigram index over it names the orders a free term may match, and a list walks
-- orders_list_idx checking it row by row when a term matches many orders. The texts are those of
-- searchTextOfOrder and searchTextOfItem (server/db/schema.ts), joined by the unit separator, so
-- no match spans two columns or two items.
-- Arguments: the order's id, equipment code, equipment description, destination.
CREATE FUNCTION order_search_text(text, text, text, text)
RETURNS text LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT lower(
    coalesce($1, '') || E'\x1f' || coalesce($2, '') || E'\x1f' || coalesce($3, '') || E'\x1f' || coalesce($4, '')
    || coalesce((SELECT string_agg(E'\x1f' || coalesce(material_code, '') || E'\x1f' || coalesce(material_description, '') || E'\x1f' || coalesce(reservation_doc_number, '') || E'\x1f' || coalesce(purchase_order_doc_number, '') || E'\x1f' || coalesce(sales_order_doc_number, '') || E'\x1f' || coalesce(delivery_order_doc_number, '') || E'\x1f' || coalesce(tracking_number, ''), '' ORDER BY i.line_number, i.id) FROM order_items i WHERE i.order_id = $1), ''))
$$;
--> statement-breakpoint
-- The orders named (those whose items changed) get their text again, written only when it differs.
-- Their rows are locked first and read after (READ COMMITTED: each statement here sees what was
-- committed before it began), so two transactions writing items of one order at once cannot
-- leave the text of the first one's snapshot: the second waits, then reads both.
CREATE FUNCTION order_search_text_refresh(touched text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM orders WHERE id = ANY (touched) ORDER BY id FOR UPDATE;
  UPDATE orders o SET search_text = s.text
  FROM (
    SELECT t.id, order_search_text(t.id, t.equipment_code, t.equipment_description, t.destination) AS text
    FROM orders t WHERE t.id = ANY (touched)
  ) s
  WHERE o.id = s.id AND o.search_text IS DISTINCT FROM s.text;
END $$;
--> statement-breakpoint
-- An order written with new text of its own: its column is computed before the row is stored (a
-- new order has no items yet: they reference it).
CREATE FUNCTION orders_search_text_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    NEW.search_text := lower(coalesce(NEW.id, '') || E'\x1f' || coalesce(NEW.equipment_code, '') || E'\x1f' || coalesce(NEW.equipment_description, '') || E'\x1f' || coalesce(NEW.destination, ''));
  ELSE
    NEW.search_text := order_search_text(NEW.id, NEW.equipment_code, NEW.equipment_description, NEW.destination);
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_search_text BEFORE INSERT OR UPDATE OF id, equipment_code, equipment_description, destination ON orders
  FOR EACH ROW EXECUTE FUNCTION orders_search_text_row();
--> statement-breakpoint
-- Items added or removed: their orders' text again, once per statement.
CREATE FUNCTION order_items_search_text_rows() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM order_search_text_refresh(array(SELECT DISTINCT order_id FROM changed_rows));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER order_items_search_text_insert AFTER INSERT ON order_items
  REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION order_items_search_text_rows();
--> statement-breakpoint
CREATE TRIGGER order_items_search_text_delete AFTER DELETE ON order_items
  REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION order_items_search_text_rows();
--> statement-breakpoint
-- Items updated: only the orders of items whose searchable text (or order, or line) changed — a
-- carrier status or a quantity leaves the text as it was and costs nothing here.
CREATE FUNCTION order_items_search_text_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM order_search_text_refresh(array(
    SELECT DISTINCT x.order_id FROM old_rows o JOIN new_rows n ON n.id = o.id,
      LATERAL (VALUES (o.order_id), (n.order_id)) AS x(order_id)
    WHERE (o.order_id, o.line_number, o.material_code, o.material_description, o.reservation_doc_number, o.purchase_order_doc_number,
           o.sales_order_doc_number, o.delivery_order_doc_number, o.tracking_number)
      IS DISTINCT FROM (n.order_id, n.line_number, n.material_code, n.material_description, n.reservation_doc_number, n.purchase_order_doc_number,
           n.sales_order_doc_number, n.delivery_order_doc_number, n.tracking_number)));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER order_items_search_text_update AFTER UPDATE ON order_items
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION order_items_search_text_update();
--> statement-breakpoint
CREATE FUNCTION order_items_search_text_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE orders SET search_text = order_search_text(id, equipment_code, equipment_description, destination);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER order_items_search_text_truncate AFTER TRUNCATE ON order_items
  FOR EACH STATEMENT EXECUTE FUNCTION order_items_search_text_truncate();
--> statement-breakpoint
-- Existing orders: every text once, in one set-based pass (then the index is built over it).
UPDATE orders o SET search_text = lower(
    coalesce(o.id, '') || E'\x1f' || coalesce(o.equipment_code, '') || E'\x1f' || coalesce(o.equipment_description, '') || E'\x1f' || coalesce(o.destination, '')
    || coalesce(s.text, ''))
  FROM orders b LEFT JOIN (
    SELECT i.order_id, string_agg(E'\x1f' || coalesce(i.material_code, '') || E'\x1f' || coalesce(i.material_description, '') || E'\x1f' || coalesce(i.reservation_doc_number, '') || E'\x1f' || coalesce(i.purchase_order_doc_number, '') || E'\x1f' || coalesce(i.sales_order_doc_number, '') || E'\x1f' || coalesce(i.delivery_order_doc_number, '') || E'\x1f' || coalesce(i.tracking_number, ''), '' ORDER BY i.line_number, i.id) AS text
    FROM order_items i GROUP BY i.order_id
  ) s ON s.order_id = b.id
  WHERE o.id = b.id;--> statement-breakpoint
CREATE INDEX "orders_search_text_trgm_idx" ON "orders" USING gin ("search_text" gin_trgm_ops) WITH (gin_pending_list_limit=1024);
