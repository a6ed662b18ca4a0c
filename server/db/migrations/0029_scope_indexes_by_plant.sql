-- #16 (docs/decisions/0047): the scope's and the order codes' indexes carry the plant, so a search's orders in the caller's plants, and those of its extra part in other plants, are named through them (fewInScope) where PostgreSQL walked the whole list index for none: a DE02 admin's `wc=FI01M001`, a mechanic's `plant!=FI01` (120-190 ms at scale 500).
DROP INDEX "orders_user_email_idx";--> statement-breakpoint
DROP INDEX "orders_ship_to_party_idx";--> statement-breakpoint
DROP INDEX "orders_work_center_lower_idx";--> statement-breakpoint
DROP INDEX "orders_planner_group_lower_idx";--> statement-breakpoint
DROP INDEX "orders_user_email_lower_idx";--> statement-breakpoint
CREATE INDEX "orders_user_email_idx" ON "orders" USING btree ("user_email","plant");--> statement-breakpoint
CREATE INDEX "orders_ship_to_party_idx" ON "orders" USING btree ("ship_to_party","plant");--> statement-breakpoint
CREATE INDEX "orders_work_center_lower_idx" ON "orders" USING btree (lower("work_center"),"plant");--> statement-breakpoint
CREATE INDEX "orders_planner_group_lower_idx" ON "orders" USING btree (lower("planner_group"),"plant");--> statement-breakpoint
CREATE INDEX "orders_user_email_lower_idx" ON "orders" USING btree (lower("user_email"),"plant");