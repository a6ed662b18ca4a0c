-- #16 (docs/decisions/0049): the grams that answer §5 free terms of one or two characters
-- (migration 0019, decision 0035) leave out the runs of digits that touch no letter. Every digit
-- pair is in most orders (document numbers), so PostgreSQL's statistics name those terms common
-- and the list walks them (strpos) without this index; their keys were a third of what every new
-- or changed order inserted into it (105 of 320 at scale 500), and the costliest part of a file
-- of new orders. A digit beside a letter stays ("km484719" keeps "km4"): a letter-and-digit pair
-- is still found through the index. Every letter and letter pair keeps its grams, as before.
-- The list asks this index for terms of letters (and a letter with a digit) only: shortTermGrams.
-- A new name, and search_grams() stays: a replica of the previous version, still running during a
-- rollout, then computes it on the rows it reads (slower, but it finds every order).
CREATE FUNCTION order_short_grams(text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path FROM CURRENT AS $$
  SELECT show_trgm(regexp_replace(regexp_replace($1, '(?<![[:alpha:]])[0-9]+(?![[:alpha:]])', '', 'g'), '.', '\&\&\&', 'g'))
$$;
--> statement-breakpoint
DROP INDEX "orders_search_grams_idx";--> statement-breakpoint
CREATE INDEX "orders_short_grams_idx" ON "orders" USING gin (order_short_grams("search_text")) WITH (gin_pending_list_limit=1024);--> statement-breakpoint
-- The list tells a common short term from a rare one by this index's statistics (commonTerms): a
-- new index has none until the table is next analyzed, and every term would count as rare.
ANALYZE "orders";
