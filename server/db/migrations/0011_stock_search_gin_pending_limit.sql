DROP INDEX "materials_code_trgm_idx";--> statement-breakpoint
DROP INDEX "materials_description_trgm_idx";--> statement-breakpoint
DROP INDEX "stock_items_bin_trgm_idx";--> statement-breakpoint
CREATE INDEX "materials_code_trgm_idx" ON "materials" USING gin ("code" gin_trgm_ops) WITH (gin_pending_list_limit=64);--> statement-breakpoint
CREATE INDEX "materials_description_trgm_idx" ON "materials" USING gin ("description_english" gin_trgm_ops) WITH (gin_pending_list_limit=64);--> statement-breakpoint
CREATE INDEX "stock_items_bin_trgm_idx" ON "stock_items" USING gin ("bin" gin_trgm_ops) WITH (gin_pending_list_limit=64);