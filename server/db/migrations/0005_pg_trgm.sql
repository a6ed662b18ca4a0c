-- Trigram matching for the substring searches of the stock and tracking lists (§5 free text):
-- `ilike '%term%'` can use a GIN index with gin_trgm_ops. pg_trgm is a trusted extension
-- (PostgreSQL ≥ 13: a database owner may create it); PGlite loads it from its contrib build.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
