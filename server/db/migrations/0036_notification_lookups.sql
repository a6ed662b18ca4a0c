-- Notifications read without reading them all (#6 review): the bell's unread dropdown and count
-- (a user's unread notifications of every channel, newest first), a stock count's notifications
-- by the link to its mechanic view (resolved under the count's row lock when it is cancelled or
-- handed over; the "due" reminder's per-person mark), and a transfer request's "waiting for you"
-- notifications by the request's id (resolved under the request's lock when it is decided).
-- Partial, with the predicates the queries write out (server/notifications/producers.ts).
CREATE INDEX "notifications_unread_idx" ON "notifications" USING btree ("user_id","created" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "notifications"."active";--> statement-breakpoint
CREATE INDEX "notifications_count_link_idx" ON "notifications" USING btree ("link") WHERE "notifications"."notification_key" = 'inventory_count_notification';--> statement-breakpoint
CREATE INDEX "notifications_transfer_request_idx" ON "notifications" USING btree (("text_params" ->> 'id')) WHERE "notifications"."notification_key" = 'other_notification' and "notifications"."text_key" = 'stockTransferRequested';
