-- Lists at scale (issue #16, docs/decisions/0035).
-- §5 free terms of one or two characters have no trigram of their own, so the trigram index on
-- orders.search_text cannot name their orders (a full index scan) and a rare pair walked every
-- order. With every character of the text written three times, each adjacent pair "dj" of a word
-- gives the trigrams "ddj" and "djj", each character "q" the trigram "qqq": search_grams() is the
-- set of those trigrams (pg_trgm's show_trgm, in C), and a GIN index over it answers
-- `search_grams(search_text) @> '{ddj,djj}'` exactly (array containment needs no recheck), which
-- `search_text like '%dj%'` implies for letters and digits. The list keeps the exact test beside it.
-- `SET search_path FROM CURRENT`: an index expression runs with search_path pg_catalog (PostgreSQL
-- ≥ 17, PGlite), and pg_trgm lives where migration 0005 put it.
CREATE FUNCTION search_grams(text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path FROM CURRENT AS $$
  SELECT show_trgm(regexp_replace($1, '.', '\&\&\&', 'g'))
$$;
--> statement-breakpoint
CREATE INDEX "orders_search_grams_idx" ON "orders" USING gin (search_grams("search_text")) WITH (gin_pending_list_limit=1024);--> statement-breakpoint
-- Stock search reads the few hundred distinct bins through this index (a skip scan), matches them,
-- then reads the matching bins' rows: at any term length (trigrams need three characters).
CREATE INDEX "stock_items_bin_idx" ON "stock_items" USING btree ("bin");