-- #16 (docs/decisions/0038): "dd=<date>" names each tab's orders from the items of that date and
-- tab. A common date has thousands of items spread over the table (8,109 items on 7,282 pages at
-- scale 500), so each count read them from the heap (~15 ms a count) to learn their order and
-- whether they are arrived or at an access point. With what the rules read (item_is_arrived,
-- item_is_action_point) and the order beside the date, the index answers alone (index-only
-- scan: ~1 ms). The included columns are those order_items_order_status_idx already holds, so
-- no update that was HOT stops being one.
DROP INDEX "order_items_delivery_date_idx";--> statement-breakpoint
CREATE INDEX "order_items_delivery_date_idx" ON "order_items" USING btree ("delivery_date") INCLUDE ("order_id", "delivery_status", "goods_receipt_posted_at", "purchase_order_goods_receipt_quantity");
