-- Decision 0073: an ERP file is a duplicate only of one received for the same slot (type, business
-- date, part of day). The same bytes for another slot (an unchanged export the next day) are that
-- slot's file: queued and applied, where they were refused as a duplicate and the slot showed
-- "missing". A replica of the previous version inserts with ON CONFLICT (checksum), which fails
-- from here on (no such unique index): its file waits in the inbox for the next tick, or its
-- upload is refused, until the rollout replaces it.
DROP INDEX "file_processing_checksum_uq";--> statement-breakpoint
CREATE UNIQUE INDEX "file_processing_checksum_slot_uq" ON "file_processing" USING btree ("checksum","file_type","business_date","file_part_of_day");