-- #16 (docs/decisions/0045): the action-point count of a caller with a scope walked orders_list_idx
-- and skipped the orders without a parcel at an access point (16,565 index entries for the
-- mechanic's 1,001 at scale 500, 2.9 ms), because the partial index of those orders held no scope
-- column. Rebuilt in the list's order with the list index's columns included, the count is an
-- index-only walk of the tab's own orders (0.75-0.9 ms). drizzle cannot declare INCLUDE.
DROP INDEX "orders_action_point_idx";--> statement-breakpoint
CREATE INDEX "orders_action_point_idx" ON "orders" USING btree ("updated_at" DESC, "id" DESC)
  INCLUDE ("plant", "work_center", "planner_group", "ship_to_party", "user_email", "item_count", "arrived_items", "action_point_items")
  WHERE action_point_items > 0;
