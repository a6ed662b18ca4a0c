-- Decision 0053: a submission's ERP reference, committed before the ERP is called, so a retried
-- submission books under the same reference (once) instead of booking the count a second time.
ALTER TABLE "stock_counts" ADD COLUMN "erp_reference" text;