-- stock_location_counts follows stock_items: one statement-level trigger per event, applying the
-- net change per (plant, storage location) of the whole statement (bulk loads stay one pass).
CREATE FUNCTION stock_location_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO stock_location_counts (plant, storage_location, items)
      SELECT plant, storage_location, count(*)::int FROM new_rows GROUP BY plant, storage_location
    ON CONFLICT (plant, storage_location) DO UPDATE SET items = stock_location_counts.items + excluded.items;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE stock_location_counts c SET items = c.items - d.n
      FROM (SELECT plant, storage_location, count(*)::int AS n FROM old_rows GROUP BY plant, storage_location) d
      WHERE c.plant = d.plant AND c.storage_location = d.storage_location;
    DELETE FROM stock_location_counts c USING (SELECT DISTINCT plant, storage_location FROM old_rows) d
      WHERE c.plant = d.plant AND c.storage_location = d.storage_location AND c.items <= 0;
  ELSE
    -- An update moves rows only when it changes their plant or storage location.
    INSERT INTO stock_location_counts (plant, storage_location, items)
      SELECT plant, storage_location, sum(n)::int FROM (
        SELECT plant, storage_location, -1 AS n FROM old_rows
        UNION ALL
        SELECT plant, storage_location, 1 AS n FROM new_rows
      ) moved GROUP BY plant, storage_location HAVING sum(n) <> 0
    ON CONFLICT (plant, storage_location) DO UPDATE SET items = stock_location_counts.items + excluded.items;
    DELETE FROM stock_location_counts WHERE items <= 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER stock_location_counts_insert AFTER INSERT ON stock_items
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stock_location_counts_apply();
--> statement-breakpoint
CREATE TRIGGER stock_location_counts_delete AFTER DELETE ON stock_items
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION stock_location_counts_apply();
--> statement-breakpoint
CREATE TRIGGER stock_location_counts_update AFTER UPDATE ON stock_items
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stock_location_counts_apply();
--> statement-breakpoint
CREATE FUNCTION stock_location_counts_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM stock_location_counts;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER stock_location_counts_truncate AFTER TRUNCATE ON stock_items
  FOR EACH STATEMENT EXECUTE FUNCTION stock_location_counts_truncate();
--> statement-breakpoint
INSERT INTO stock_location_counts (plant, storage_location, items)
  SELECT plant, storage_location, count(*)::int FROM stock_items GROUP BY plant, storage_location;
