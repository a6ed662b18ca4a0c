-- Decision 0053: the tries of a count's booking still waiting for the ERP, and when the first of
-- them began, so a refusal of one try does not unfreeze a count another try may still book.
ALTER TABLE "stock_counts" ADD COLUMN "erp_tries" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stock_counts" ADD COLUMN "erp_try_started_at" timestamp with time zone;
