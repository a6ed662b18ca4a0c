-- Decision 0061: a stock transfer request is marked done or declined once, by whom and when; lists by requester and by plant.
ALTER TABLE "stock_transfer_requests" ADD COLUMN "decided_by" uuid;--> statement-breakpoint
ALTER TABLE "stock_transfer_requests" ADD COLUMN "decided_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "stock_transfer_requests" ADD CONSTRAINT "stock_transfer_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stock_transfer_requests_user_idx" ON "stock_transfer_requests" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "stock_transfer_requests_plant_idx" ON "stock_transfer_requests" USING btree ("plant","created_at");--> statement-breakpoint
ALTER TABLE "stock_transfer_requests" ADD CONSTRAINT "stock_transfer_requests_status_check" CHECK ("stock_transfer_requests"."status" in ('requested', 'done', 'declined'));