DROP INDEX "order_items_material_idx";--> statement-breakpoint
DROP INDEX "order_items_po_idx";--> statement-breakpoint
DROP INDEX "order_items_tracking_idx";--> statement-breakpoint
CREATE INDEX "order_items_material_lower_idx" ON "order_items" USING btree (lower("material_code"));--> statement-breakpoint
CREATE INDEX "order_items_po_lower_idx" ON "order_items" USING btree (lower("purchase_order_doc_number"));--> statement-breakpoint
CREATE INDEX "order_items_tracking_lower_idx" ON "order_items" USING btree (lower("tracking_number"));--> statement-breakpoint
CREATE INDEX "order_items_search_trgm_idx" ON "order_items" USING gin ((coalesce("material_code", '') || E'\x1f' || coalesce("material_description", '') || E'\x1f' || coalesce("reservation_doc_number", '') || E'\x1f' || coalesce("purchase_order_doc_number", '') || E'\x1f' || coalesce("sales_order_doc_number", '') || E'\x1f' || coalesce("delivery_order_doc_number", '') || E'\x1f' || coalesce("tracking_number", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "orders_search_trgm_idx" ON "orders" USING gin ((coalesce("id", '') || E'\x1f' || coalesce("equipment_code", '') || E'\x1f' || coalesce("equipment_description", '') || E'\x1f' || coalesce("destination", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "orders_service_order_lower_idx" ON "orders" USING btree (lower("service_order"));--> statement-breakpoint
CREATE INDEX "orders_equipment_lower_idx" ON "orders" USING btree (lower("equipment_code"));--> statement-breakpoint
-- §5 field terms compare lower(column): without statistics on these expressions the planner
-- guesses 0.5% for "plant=FI01" (really 60%) and picks a nested loop over every item.
CREATE STATISTICS "orders_lower_codes_plant" ON (lower("plant")) FROM "orders";--> statement-breakpoint
CREATE STATISTICS "orders_lower_codes_work_center" ON (lower("work_center")) FROM "orders";--> statement-breakpoint
CREATE STATISTICS "orders_lower_codes_planner_group" ON (lower("planner_group")) FROM "orders";--> statement-breakpoint
CREATE STATISTICS "orders_lower_codes_user_email" ON (lower("user_email")) FROM "orders";--> statement-breakpoint
CREATE STATISTICS "order_items_lower_codes_storage_location" ON (lower("storage_location")) FROM "order_items";--> statement-breakpoint
ANALYZE "orders";--> statement-breakpoint
ANALYZE "order_items";
