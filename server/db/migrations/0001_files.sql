CREATE TABLE "file_contents" (
	"file_id" uuid PRIMARY KEY NOT NULL,
	"content" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "file_processing" ADD COLUMN "source" text;--> statement-breakpoint
ALTER TABLE "file_processing" ADD COLUMN "uploaded_by" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "recipient" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "link" text;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "next_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "file_contents" ADD CONSTRAINT "file_contents_file_id_file_processing_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."file_processing"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "file_processing_missing_slot_uq" ON "file_processing" USING btree ("business_date","file_type","file_part_of_day") WHERE status = 'missing';--> statement-breakpoint
CREATE INDEX "file_processing_queue_idx" ON "file_processing" USING btree ("status","created_at") WHERE status in ('not_processed','in_progress');--> statement-breakpoint
CREATE INDEX "notifications_outbox_idx" ON "notifications" USING btree ("delivery_state","next_attempt_at");