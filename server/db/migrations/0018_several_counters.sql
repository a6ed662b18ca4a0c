CREATE TABLE "stock_count_part_lines" (
	"part_id" integer NOT NULL,
	"material_count_id" integer NOT NULL,
	"quantity" numeric,
	"counted_by" text,
	"counted_at" timestamp with time zone,
	"version" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "stock_count_part_lines_part_id_material_count_id_pk" PRIMARY KEY("part_id","material_count_id")
);
--> statement-breakpoint
CREATE TABLE "stock_count_parts" (
	"id" serial PRIMARY KEY NOT NULL,
	"stock_count_id" integer NOT NULL,
	"counter" text NOT NULL,
	"label" text,
	"status" text DEFAULT 'open' NOT NULL,
	"done_at" timestamp with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_count_parts_status_ck" CHECK ("stock_count_parts"."status" in ('open','done'))
);
--> statement-breakpoint
ALTER TABLE "material_counts" ADD COLUMN "resolved_part_id" integer;--> statement-breakpoint
ALTER TABLE "material_counts" ADD COLUMN "resolved_by" text;--> statement-breakpoint
ALTER TABLE "material_counts" ADD COLUMN "resolved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "stock_counts" ADD COLUMN "is_blind" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "stock_count_part_lines" ADD CONSTRAINT "stock_count_part_lines_part_id_stock_count_parts_id_fk" FOREIGN KEY ("part_id") REFERENCES "public"."stock_count_parts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_count_part_lines" ADD CONSTRAINT "stock_count_part_lines_material_count_id_material_counts_id_fk" FOREIGN KEY ("material_count_id") REFERENCES "public"."material_counts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_count_parts" ADD CONSTRAINT "stock_count_parts_stock_count_id_stock_counts_id_fk" FOREIGN KEY ("stock_count_id") REFERENCES "public"."stock_counts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stock_count_part_lines_line_idx" ON "stock_count_part_lines" USING btree ("material_count_id");--> statement-breakpoint
CREATE UNIQUE INDEX "stock_count_parts_counter_uq" ON "stock_count_parts" USING btree ("stock_count_id","counter");--> statement-breakpoint
CREATE INDEX "stock_count_parts_counter_idx" ON "stock_count_parts" USING btree ("counter");