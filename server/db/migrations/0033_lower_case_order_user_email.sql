-- An order's user_email is compared with the signed-in user's (lower-case) address: "addressed to me",
-- My orders and the delivery notification. ERP files may write it in any case; ingestion now lower-cases
-- it (the `email` cell kind), and what was stored before is lower-cased here.
UPDATE "orders" SET "user_email" = lower("user_email") WHERE "user_email" <> lower("user_email");
