CREATE TABLE "stock_location_counts" (
	"plant" text NOT NULL,
	"storage_location" text NOT NULL,
	"items" integer NOT NULL,
	CONSTRAINT "stock_location_counts_plant_storage_location_pk" PRIMARY KEY("plant","storage_location")
);
