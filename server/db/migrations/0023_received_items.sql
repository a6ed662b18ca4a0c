-- #16 (docs/decisions/0040): "delivery=<status>" names its orders from the items of the status.
-- The status index also holds the item's order, so the orders of a status are an index-only read
-- of its items (18,136 items of "Delivery Failed" at scale 500: 4 ms), where each count walked the
-- orders checking their items one by one until 1,001 were found (25,000 orders for a rare status:
-- 100-150 ms). Items without a status (most of them) are left out; the skip scan over the
-- distinct statuses reads the same index.
DROP INDEX "order_items_status_idx";--> statement-breakpoint
CREATE INDEX "order_items_status_idx" ON "order_items" USING btree ("delivery_status","order_id") WHERE "order_items"."delivery_status" is not null;--> statement-breakpoint
-- The arrived tab of a status that does not make an item arrived by itself ("OnTheWay": arrived
-- only by a goods receipt) walked every order with an arrived item, checking its items, for a
-- count that is nearly always 0 (213,725 orders, 1.5 s at scale 500). The items arrived by their
-- receipt and not by their status are few (126,000 of 1.08 million at scale 500, most without a
-- status); the predicate is the one the search writes (receivedWith, server/repositories/tracking.ts).
-- A later migration that replaces item_is_arrived() must REINDEX it. The migrator's transaction
-- holds order_items locked from the DROP on: reads of items wait for both builds (1.2 s at scale 500).
CREATE INDEX "order_items_received_idx" ON "order_items" USING btree ("delivery_status","order_id") WHERE item_is_arrived("order_items"."delivery_status", "order_items"."goods_receipt_posted_at", "order_items"."purchase_order_goods_receipt_quantity") and not item_is_arrived("order_items"."delivery_status", null, null);
