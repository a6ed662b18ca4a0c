-- #16: an update of order items writes each of their orders once. Two statement triggers on
-- order_items UPDATE each rewrote the order: order_item_summary_update (0006/0015: the item
-- count, arrived and action-point counts, by deltas) and order_items_search_text_update (0016:
-- the search text). A DELIVERIES line that changes an item's status AND its tracking number
-- wrote its order twice. One trigger now hands the orders of the items whose summary or text
-- inputs changed to order_items_rollup_refresh (0020), which writes an order once, only where
-- the count, the arrived and action-point counts or the text differ. A carrier scan that changes
-- neither (transport details, an eta) writes no order at all, as before.
CREATE FUNCTION order_items_rollup_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM order_items_rollup_refresh(array(
    SELECT DISTINCT x.order_id FROM old_rows o JOIN new_rows n ON n.id = o.id,
      LATERAL (VALUES (o.order_id), (n.order_id)) AS x(order_id)
    WHERE (o.order_id, o.line_number, o.delivery_status, o.goods_receipt_posted_at, o.purchase_order_goods_receipt_quantity,
           o.material_code, o.material_description, o.reservation_doc_number, o.purchase_order_doc_number,
           o.sales_order_doc_number, o.delivery_order_doc_number, o.tracking_number)
      IS DISTINCT FROM (n.order_id, n.line_number, n.delivery_status, n.goods_receipt_posted_at, n.purchase_order_goods_receipt_quantity,
           n.material_code, n.material_description, n.reservation_doc_number, n.purchase_order_doc_number,
           n.sales_order_doc_number, n.delivery_order_doc_number, n.tracking_number)));
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER order_item_summary_update ON order_items;--> statement-breakpoint
DROP TRIGGER order_items_search_text_update ON order_items;--> statement-breakpoint
DROP FUNCTION order_item_summary_apply();--> statement-breakpoint
DROP FUNCTION order_items_search_text_update();--> statement-breakpoint
CREATE TRIGGER order_items_rollup_update AFTER UPDATE ON order_items
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION order_items_rollup_update();
