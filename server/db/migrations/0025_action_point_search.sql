-- #16 (docs/decisions/0043): a search's action-point count ANDed the term's whole trigram list
-- (72,502 orders for "roller" at scale 500) with orders_action_point_idx (57,293) to find the few
-- orders of the tab: 40-90 ms a count. This index holds the search text of the orders with a
-- parcel at an access point only, so its lists are the tab's own.
CREATE INDEX "orders_action_point_search_idx" ON "orders" USING gin ("search_text" gin_trgm_ops) WITH (gin_pending_list_limit=1024) WHERE action_point_items > 0;