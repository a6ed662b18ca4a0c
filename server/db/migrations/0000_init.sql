CREATE TABLE "access_point_priorities" (
	"ship_to_party_code" text NOT NULL,
	"access_point_id" text NOT NULL,
	"priority" integer NOT NULL,
	"is_enabled" boolean DEFAULT true NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "access_point_priorities_ship_to_party_code_access_point_id_pk" PRIMARY KEY("ship_to_party_code","access_point_id"),
	CONSTRAINT "access_point_priorities_priority_ck" CHECK ("access_point_priorities"."priority" between 1 and 99)
);
--> statement-breakpoint
CREATE TABLE "access_points" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"address" text NOT NULL,
	"postal_code" text NOT NULL,
	"city" text NOT NULL,
	"country" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "allowed_plants" (
	"parameter" text NOT NULL,
	"plant" text NOT NULL,
	CONSTRAINT "allowed_plants_parameter_plant_pk" PRIMARY KEY("parameter","plant"),
	CONSTRAINT "allowed_plants_parameter_ck" CHECK ("allowed_plants"."parameter" in ('notifications_allowed_plants','stock_count_allowed_plants','count_deadline_allowed_plants','show_zero_stock_material_plants'))
);
--> statement-breakpoint
CREATE TABLE "approval_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"requesting_user_id" uuid NOT NULL,
	"requesting_user_email" text NOT NULL,
	"manager_email" text NOT NULL,
	"approval_status" text DEFAULT 'Pending' NOT NULL,
	"decided_by" uuid,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "approval_requests_status_ck" CHECK ("approval_requests"."approval_status" in ('Pending','Approved','Rejected'))
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"actor_user_id" uuid,
	"actor_email" text NOT NULL,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "feedback" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"type" text NOT NULL,
	"plant" text,
	"payload" jsonb NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "file_processing" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"file_type" text NOT NULL,
	"file_name" text NOT NULL,
	"business_date" date NOT NULL,
	"file_part_of_day" text NOT NULL,
	"start_date" timestamp with time zone,
	"end_date" timestamp with time zone,
	"status" text NOT NULL,
	"checksum" text,
	"line_count" integer,
	"errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"claimed_by" text,
	"claimed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "file_processing_status_ck" CHECK ("file_processing"."status" in ('processed','errored','missing','in_progress','not_processed'))
);
--> statement-breakpoint
CREATE TABLE "grants" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"label" text NOT NULL,
	"description" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"user_id" uuid NOT NULL,
	"key" text NOT NULL,
	"method" text NOT NULL,
	"path" text NOT NULL,
	"request_hash" text NOT NULL,
	"status_code" integer,
	"response_body" text,
	"content_type" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "important_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"position" integer NOT NULL,
	"text" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "material_counts" (
	"id" serial PRIMARY KEY NOT NULL,
	"stock_count_id" integer NOT NULL,
	"material_code" text NOT NULL,
	"material_description_english" text NOT NULL,
	"quantity" numeric,
	"unit" text NOT NULL,
	"book_quantity" numeric,
	"book_quantity_at" timestamp with time zone,
	"version" integer DEFAULT 0 NOT NULL,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "materials" (
	"code" text PRIMARY KEY NOT NULL,
	"description_english" text NOT NULL,
	"unit" text NOT NULL,
	"material_group" text
);
--> statement-breakpoint
CREATE TABLE "notification_devices" (
	"user_id" uuid NOT NULL,
	"device_id" text NOT NULL,
	"token" text,
	"device_name" text NOT NULL,
	"is_enabled" boolean DEFAULT true NOT NULL,
	"is_logged_in" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_devices_user_id_device_id_pk" PRIMARY KEY("user_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "notification_settings" (
	"user_id" uuid NOT NULL,
	"primary" boolean NOT NULL,
	"email_enabled" boolean DEFAULT false NOT NULL,
	"email" text,
	"mobile_enabled" boolean DEFAULT false NOT NULL,
	"mobile_number" text,
	"push_notifications_enabled" boolean DEFAULT false NOT NULL,
	"preferences" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_settings_user_id_primary_pk" PRIMARY KEY("user_id","primary")
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"notification_key" text NOT NULL,
	"user_email" text NOT NULL,
	"phone_number" text,
	"plant" text,
	"planner_group" text,
	"storage_location" text,
	"work_center" text,
	"subject" text,
	"title" text,
	"message" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"delivery_state" text DEFAULT 'recorded' NOT NULL,
	"delivery_error" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notifications_channel_ck" CHECK ("notifications"."channel" in ('email','sms','push'))
);
--> statement-breakpoint
CREATE TABLE "order_items" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"line_number" integer NOT NULL,
	"material_code" text NOT NULL,
	"material_description" text NOT NULL,
	"unit" text NOT NULL,
	"delivery_date" date,
	"eta" date,
	"delivery_status" text,
	"delivery_type" text,
	"delivery_address" text,
	"storage_location" text,
	"address_code" text,
	"tracking_number" text,
	"transport_details" jsonb,
	"sms_timestamps" jsonb,
	"reservation_doc_number" text,
	"reservation_quantity" numeric,
	"pending" numeric,
	"purchase_order_doc_number" text,
	"purchase_order" text,
	"purchase_order_quantity" numeric,
	"purchase_order_confirmation_category" text,
	"purchase_order_confirmation_quantity" numeric,
	"purchase_order_goods_receipt_quantity" numeric,
	"goods_receipt_posted_at" timestamp with time zone,
	"sales_order_doc_number" text,
	"sales_order_doc_number_at_po" text,
	"sales_order_schedule_line_quantity" numeric,
	"sales_order_quantity" numeric,
	"delivery_order_doc_number" text,
	"delivery_quantity" numeric,
	"main_asset_number" text,
	"network" text,
	"cost_center" text,
	"action_point" text,
	"notification" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" text PRIMARY KEY NOT NULL,
	"service_order" text,
	"equipment_code" text,
	"equipment_description" text,
	"destination" text,
	"plant" text NOT NULL,
	"work_center" text,
	"planner_group" text,
	"ship_to_party" text,
	"user_email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "parcel_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"order_item_id" bigint NOT NULL,
	"tracking_number" text NOT NULL,
	"carrier" text NOT NULL,
	"status" text NOT NULL,
	"description" text NOT NULL,
	"location" text,
	"occurred_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "planner_groups" (
	"plant" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "planner_groups_plant_code_pk" PRIMARY KEY("plant","code")
);
--> statement-breakpoint
CREATE TABLE "plants" (
	"code" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"country" text NOT NULL,
	"city" text NOT NULL,
	"timezone" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ship_to_parties" (
	"code" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"plant" text,
	"country" text NOT NULL,
	"address" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stock_counts" (
	"id" serial PRIMARY KEY NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" text NOT NULL,
	"plant" text NOT NULL,
	"type" text NOT NULL,
	"should_be_done_at" date,
	"status" text DEFAULT 'initiated' NOT NULL,
	"is_draft" boolean DEFAULT false NOT NULL,
	"storage_location" text NOT NULL,
	"conducted_by" text,
	"work_center" text,
	"planner_group" text,
	"latest_sap_error" text,
	"physical_inventory_document_number" text,
	"recount_of" integer,
	"submitted_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_counts_type_ck" CHECK ("stock_counts"."type" in ('single','wall_to_wall','local')),
	CONSTRAINT "stock_counts_status_ck" CHECK ("stock_counts"."status" in ('initiated','in_progress','submitted','completed','cancelled','error','recount'))
);
--> statement-breakpoint
CREATE TABLE "stock_items" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"plant" text NOT NULL,
	"storage_location" text NOT NULL,
	"material_code" text NOT NULL,
	"bin" text,
	"unrestricted_count" numeric,
	"quality_inspection_count" numeric,
	"blocked_count" numeric,
	"restricted_count" numeric,
	"transfer_count" numeric,
	"reorder_point" numeric,
	"reorder_quantity" numeric,
	"planner_groups" text[] DEFAULT '{}'::text[] NOT NULL,
	"work_centers" text[] DEFAULT '{}'::text[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stock_transfer_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"plant" text NOT NULL,
	"storage_location_from" text NOT NULL,
	"storage_location_to" text NOT NULL,
	"material_code" text NOT NULL,
	"quantity" numeric NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "storage_locations" (
	"plant" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"work_center" text,
	CONSTRAINT "storage_locations_plant_code_pk" PRIMARY KEY("plant","code")
);
--> statement-breakpoint
CREATE TABLE "user_attachments" (
	"user_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"plant" text DEFAULT '' NOT NULL,
	"code" text NOT NULL,
	CONSTRAINT "user_attachments_user_id_kind_plant_code_pk" PRIMARY KEY("user_id","kind","plant","code"),
	CONSTRAINT "user_attachments_kind_ck" CHECK ("user_attachments"."kind" in ('plant','planner_group','work_center','storage_location','ship_to_party','managed_ship_to_party'))
);
--> statement-breakpoint
CREATE TABLE "user_grants" (
	"user_id" uuid NOT NULL,
	"grant_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_grants_user_id_grant_id_pk" PRIMARY KEY("user_id","grant_id")
);
--> statement-breakpoint
CREATE TABLE "user_identities" (
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_identities_issuer_subject_pk" PRIMARY KEY("issuer","subject")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"display_name" text NOT NULL,
	"licensed" boolean DEFAULT true NOT NULL,
	"organisation" text,
	"locale" text DEFAULT 'en-US' NOT NULL,
	"is_locale_locked" boolean DEFAULT false NOT NULL,
	"phone_number" text,
	"expiration_date" date,
	"first_login" boolean DEFAULT true NOT NULL,
	"approval_status" text DEFAULT 'Pending' NOT NULL,
	"last_login_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_approval_status_ck" CHECK ("users"."approval_status" in ('Pending','Approved','Rejected'))
);
--> statement-breakpoint
CREATE TABLE "work_centers" (
	"plant" text NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"planner_group" text,
	CONSTRAINT "work_centers_plant_code_pk" PRIMARY KEY("plant","code")
);
--> statement-breakpoint
ALTER TABLE "access_point_priorities" ADD CONSTRAINT "access_point_priorities_ship_to_party_code_ship_to_parties_code_fk" FOREIGN KEY ("ship_to_party_code") REFERENCES "public"."ship_to_parties"("code") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_point_priorities" ADD CONSTRAINT "access_point_priorities_access_point_id_access_points_id_fk" FOREIGN KEY ("access_point_id") REFERENCES "public"."access_points"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "allowed_plants" ADD CONSTRAINT "allowed_plants_plant_plants_code_fk" FOREIGN KEY ("plant") REFERENCES "public"."plants"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_requesting_user_id_users_id_fk" FOREIGN KEY ("requesting_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "approval_requests" ADD CONSTRAINT "approval_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "feedback" ADD CONSTRAINT "feedback_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "material_counts" ADD CONSTRAINT "material_counts_stock_count_id_stock_counts_id_fk" FOREIGN KEY ("stock_count_id") REFERENCES "public"."stock_counts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "material_counts" ADD CONSTRAINT "material_counts_material_code_materials_code_fk" FOREIGN KEY ("material_code") REFERENCES "public"."materials"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_devices" ADD CONSTRAINT "notification_devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD CONSTRAINT "notification_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_plant_plants_code_fk" FOREIGN KEY ("plant") REFERENCES "public"."plants"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parcel_events" ADD CONSTRAINT "parcel_events_order_item_id_order_items_id_fk" FOREIGN KEY ("order_item_id") REFERENCES "public"."order_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "planner_groups" ADD CONSTRAINT "planner_groups_plant_plants_code_fk" FOREIGN KEY ("plant") REFERENCES "public"."plants"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ship_to_parties" ADD CONSTRAINT "ship_to_parties_plant_plants_code_fk" FOREIGN KEY ("plant") REFERENCES "public"."plants"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_counts" ADD CONSTRAINT "stock_counts_plant_plants_code_fk" FOREIGN KEY ("plant") REFERENCES "public"."plants"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_items" ADD CONSTRAINT "stock_items_plant_plants_code_fk" FOREIGN KEY ("plant") REFERENCES "public"."plants"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_items" ADD CONSTRAINT "stock_items_material_code_materials_code_fk" FOREIGN KEY ("material_code") REFERENCES "public"."materials"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_transfer_requests" ADD CONSTRAINT "stock_transfer_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_transfer_requests" ADD CONSTRAINT "stock_transfer_requests_plant_plants_code_fk" FOREIGN KEY ("plant") REFERENCES "public"."plants"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_transfer_requests" ADD CONSTRAINT "stock_transfer_requests_material_code_materials_code_fk" FOREIGN KEY ("material_code") REFERENCES "public"."materials"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storage_locations" ADD CONSTRAINT "storage_locations_plant_plants_code_fk" FOREIGN KEY ("plant") REFERENCES "public"."plants"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_attachments" ADD CONSTRAINT "user_attachments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_grants" ADD CONSTRAINT "user_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_grants" ADD CONSTRAINT "user_grants_grant_id_grants_id_fk" FOREIGN KEY ("grant_id") REFERENCES "public"."grants"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_identities" ADD CONSTRAINT "user_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "work_centers" ADD CONSTRAINT "work_centers_plant_plants_code_fk" FOREIGN KEY ("plant") REFERENCES "public"."plants"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "approval_requests_status_idx" ON "approval_requests" USING btree ("approval_status");--> statement-breakpoint
CREATE INDEX "audit_log_target_idx" ON "audit_log" USING btree ("target_type","target_id");--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "feedback_user_idx" ON "feedback" USING btree ("user_id","created");--> statement-breakpoint
CREATE INDEX "file_processing_date_idx" ON "file_processing" USING btree ("business_date");--> statement-breakpoint
CREATE UNIQUE INDEX "file_processing_checksum_uq" ON "file_processing" USING btree ("checksum");--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "material_counts_count_material_uq" ON "material_counts" USING btree ("stock_count_id","material_code");--> statement-breakpoint
CREATE INDEX "notifications_user_idx" ON "notifications" USING btree ("user_id","channel","created");--> statement-breakpoint
CREATE UNIQUE INDEX "order_items_order_line_uq" ON "order_items" USING btree ("order_id","line_number");--> statement-breakpoint
CREATE INDEX "order_items_material_idx" ON "order_items" USING btree ("material_code");--> statement-breakpoint
CREATE INDEX "order_items_po_idx" ON "order_items" USING btree ("purchase_order_doc_number");--> statement-breakpoint
CREATE INDEX "order_items_tracking_idx" ON "order_items" USING btree ("tracking_number");--> statement-breakpoint
CREATE INDEX "order_items_status_idx" ON "order_items" USING btree ("delivery_status");--> statement-breakpoint
CREATE INDEX "orders_plant_idx" ON "orders" USING btree ("plant","created_at");--> statement-breakpoint
CREATE INDEX "orders_user_email_idx" ON "orders" USING btree ("user_email");--> statement-breakpoint
CREATE INDEX "orders_work_center_idx" ON "orders" USING btree ("plant","work_center");--> statement-breakpoint
CREATE INDEX "parcel_events_item_idx" ON "parcel_events" USING btree ("order_item_id","occurred_at");--> statement-breakpoint
CREATE INDEX "stock_counts_plant_idx" ON "stock_counts" USING btree ("plant","status");--> statement-breakpoint
CREATE INDEX "stock_counts_conducted_by_idx" ON "stock_counts" USING btree ("conducted_by");--> statement-breakpoint
CREATE UNIQUE INDEX "stock_items_location_material_uq" ON "stock_items" USING btree ("plant","storage_location","material_code");--> statement-breakpoint
CREATE INDEX "stock_items_material_idx" ON "stock_items" USING btree ("material_code");--> statement-breakpoint
CREATE INDEX "user_attachments_lookup_idx" ON "user_attachments" USING btree ("kind","plant","code");--> statement-breakpoint
CREATE INDEX "user_identities_user_idx" ON "user_identities" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_uq" ON "users" USING btree ("email");