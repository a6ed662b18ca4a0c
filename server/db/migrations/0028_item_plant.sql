-- #16 (docs/decisions/0047): an item carries its order's plant, so a search by an item field reaches only the caller's plants' items through (lower(storage_location), plant). A DE02 admin's `sloc=V001` (193,231 items, 54 of them in DE02) read every V001 item for each count: 1.2-1.5 s at scale 500.
-- The foreign key (order_id, plant) -> orders (id, plant) holds the copy equal to the order's and carries a change of the order's plant (ON UPDATE CASCADE); it replaces the foreign key on order_id alone (same ON DELETE CASCADE).
ALTER TABLE "orders" ADD CONSTRAINT "orders_id_plant_uq" UNIQUE("id","plant");--> statement-breakpoint
ALTER TABLE "order_items" ADD COLUMN "plant" text;--> statement-breakpoint
-- The backfill changes no input of the items' rollup (order, line, status, receipt, searchable fields): its statement trigger would compare every row for nothing.
ALTER TABLE "order_items" DISABLE TRIGGER "order_items_rollup_update";--> statement-breakpoint
UPDATE "order_items" i SET "plant" = o."plant" FROM "orders" o WHERE o."id" = i."order_id";--> statement-breakpoint
ALTER TABLE "order_items" ENABLE TRIGGER "order_items_rollup_update";--> statement-breakpoint
ALTER TABLE "order_items" ALTER COLUMN "plant" SET NOT NULL;--> statement-breakpoint
-- A writer may leave the plant out (the ERP ingestion and the seed give it): the order's is filled in before the foreign key checks it. An item of an order that does not exist stays a foreign-key violation, as before.
CREATE FUNCTION order_items_plant_fill() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT o.plant INTO NEW.plant FROM orders o WHERE o.id = NEW.order_id;
  IF NEW.plant IS NULL THEN
    RAISE foreign_key_violation USING MESSAGE = format('insert or update on table "order_items" violates foreign key constraint "order_items_order_plant_fk": order %s does not exist', NEW.order_id);
  END IF;
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER order_items_plant_fill BEFORE INSERT OR UPDATE OF order_id, plant ON order_items FOR EACH ROW WHEN (NEW.plant IS NULL) EXECUTE FUNCTION order_items_plant_fill();--> statement-breakpoint
ALTER TABLE "order_items" DROP CONSTRAINT "order_items_order_id_orders_id_fk";--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_order_plant_fk" FOREIGN KEY ("order_id","plant") REFERENCES "public"."orders"("id","plant") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
DROP INDEX "order_items_storage_location_lower_idx";--> statement-breakpoint
CREATE INDEX "order_items_storage_location_plant_idx" ON "order_items" USING btree (lower("storage_location"),"plant");
