-- Stock search (§5) counts per storage location without reading the rows (issue #4, decision
-- 0012). stock_material_bits gives every stocked material a bit; stock_location_materials holds,
-- per location, the bits of the materials it holds (`held`) and of those whose total is not 0
-- (`shown`: the zero-hiding rule of listStock). A search then counts a location's matching
-- materials as bit_count(bits & mask). Statement-level triggers on stock_items keep both strings
-- from the rows a statement changed; bits are set and cleared in place (UPDATE takes the row
-- lock and works on the latest version), so concurrent statements on one location compose.

-- `bits` with the positions in `to_clear` cleared and those in `to_set` set, grown (in steps of
-- 256) when a position lies beyond its end.
CREATE FUNCTION stock_bits_apply(bits varbit, to_clear integer[], to_set integer[]) RETURNS varbit
LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  top integer := coalesce((SELECT max(b) FROM unnest(to_set) b), -1) + 1;
  b integer;
BEGIN
  IF top > length(bits) THEN
    bits := bits || repeat('0', ((top + 255) / 256) * 256 - length(bits))::varbit;
  END IF;
  FOREACH b IN ARRAY coalesce(to_clear, '{}') LOOP
    IF b < length(bits) THEN bits := set_bit(bits, b, 0); END IF;
  END LOOP;
  FOREACH b IN ARRAY coalesce(to_set, '{}') LOOP
    bits := set_bit(bits, b, 1);
  END LOOP;
  RETURN bits;
END $$;
--> statement-breakpoint
-- Applies the net change of one statement, one entry per (plant, location, material) whose
-- state changed: present = a row holds it now, shown = that row's total is not 0.
CREATE FUNCTION stock_location_materials_change(plants text[], locations text[], codes text[], present boolean[], shown boolean[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF plants IS NULL THEN
    RETURN;
  END IF;
  INSERT INTO stock_material_bits (material_code)
    SELECT DISTINCT c.code FROM unnest(codes, present) AS c(code, present)
    WHERE c.present AND NOT EXISTS (SELECT 1 FROM stock_material_bits b WHERE b.material_code = c.code)
    ORDER BY 1
  ON CONFLICT (material_code) DO NOTHING;
  INSERT INTO stock_location_materials (plant, storage_location)
    SELECT DISTINCT c.plant, c.location FROM unnest(plants, locations, present) AS c(plant, location, present) WHERE c.present
  ON CONFLICT (plant, storage_location) DO NOTHING;
  UPDATE stock_location_materials l
     SET held = stock_bits_apply(l.held, d.held_clear, d.held_set),
         shown = stock_bits_apply(l.shown, d.shown_clear, d.shown_set)
    FROM (SELECT c.plant, c.location,
                 array_agg(b.bit) FILTER (WHERE c.present) AS held_set,
                 array_agg(b.bit) FILTER (WHERE NOT c.present) AS held_clear,
                 array_agg(b.bit) FILTER (WHERE c.shown) AS shown_set,
                 array_agg(b.bit) FILTER (WHERE NOT c.shown) AS shown_clear
            FROM unnest(plants, locations, codes, present, shown) AS c(plant, location, code, present, shown)
            JOIN stock_material_bits b ON b.material_code = c.code
           GROUP BY c.plant, c.location) d
   WHERE l.plant = d.plant AND l.storage_location = d.location;
END $$;
--> statement-breakpoint
CREATE FUNCTION stock_location_materials_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  plants text[];
  locations text[];
  codes text[];
  present boolean[];
  shown boolean[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(plant), array_agg(storage_location), array_agg(material_code), array_agg(true),
           array_agg(coalesce(unrestricted_count + quality_inspection_count + blocked_count + restricted_count + transfer_count, 1) <> 0)
      INTO plants, locations, codes, present, shown
      FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(plant), array_agg(storage_location), array_agg(material_code), array_agg(false), array_agg(false)
      INTO plants, locations, codes, present, shown
      FROM old_rows;
  ELSE
    -- Rows whose (plant, location, material) or shown state changed; the unique index makes a
    -- key appear at most once on each side.
    SELECT array_agg(coalesce(n.plant, o.plant)), array_agg(coalesce(n.storage_location, o.storage_location)),
           array_agg(coalesce(n.material_code, o.material_code)), array_agg(n.plant IS NOT NULL), array_agg(coalesce(n.shown, false))
      INTO plants, locations, codes, present, shown
      FROM (SELECT plant, storage_location, material_code,
                   coalesce(unrestricted_count + quality_inspection_count + blocked_count + restricted_count + transfer_count, 1) <> 0 AS shown
              FROM old_rows) o
      FULL JOIN (SELECT plant, storage_location, material_code,
                        coalesce(unrestricted_count + quality_inspection_count + blocked_count + restricted_count + transfer_count, 1) <> 0 AS shown
                   FROM new_rows) n
        ON n.plant = o.plant AND n.storage_location = o.storage_location AND n.material_code = o.material_code
     WHERE n.shown IS DISTINCT FROM o.shown;
  END IF;
  PERFORM stock_location_materials_change(plants, locations, codes, present, shown);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER stock_location_materials_insert AFTER INSERT ON stock_items
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stock_location_materials_apply();
--> statement-breakpoint
CREATE TRIGGER stock_location_materials_delete AFTER DELETE ON stock_items
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION stock_location_materials_apply();
--> statement-breakpoint
CREATE TRIGGER stock_location_materials_update AFTER UPDATE ON stock_items
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION stock_location_materials_apply();
--> statement-breakpoint
CREATE FUNCTION stock_location_materials_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM stock_location_materials;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER stock_location_materials_truncate AFTER TRUNCATE ON stock_items
  FOR EACH STATEMENT EXECUTE FUNCTION stock_location_materials_truncate();
--> statement-breakpoint
-- Existing stock: bits in material order, then each location's strings in one pass.
INSERT INTO stock_material_bits (material_code)
  SELECT DISTINCT material_code FROM stock_items ORDER BY 1;
--> statement-breakpoint
INSERT INTO stock_location_materials (plant, storage_location, held, shown)
  SELECT s.plant, s.storage_location, stock_bits_apply(B'', NULL, array_agg(b.bit)),
         stock_bits_apply(B'', NULL, array_agg(b.bit) FILTER (
           WHERE coalesce(s.unrestricted_count + s.quality_inspection_count + s.blocked_count + s.restricted_count + s.transfer_count, 1) <> 0))
    FROM stock_items s JOIN stock_material_bits b ON b.material_code = s.material_code
   GROUP BY s.plant, s.storage_location;
