-- Change notifications for the in-process caches (server/cache, docs/decisions/0014): every
-- statement that writes a table a cached answer is built from sends NOTIFY partstrack_changed
-- with the cache topic. NOTIFY is transactional (sent at commit, dropped on rollback, identical
-- payloads of one transaction sent once), so a listener never hears of a change it cannot read yet.
--   'tracking': the tracking list (orders, their items and the count tables kept from them,
--               parcel events);
--   'users':    the caller behind a token (users, identities, grants, attachments: resolveUser).
CREATE FUNCTION partstrack_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('partstrack_changed', TG_ARGV[0]);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON orders
  FOR EACH STATEMENT EXECUTE FUNCTION partstrack_notify_change('tracking');
--> statement-breakpoint
CREATE TRIGGER order_items_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON order_items
  FOR EACH STATEMENT EXECUTE FUNCTION partstrack_notify_change('tracking');
--> statement-breakpoint
CREATE TRIGGER order_group_counts_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON order_group_counts
  FOR EACH STATEMENT EXECUTE FUNCTION partstrack_notify_change('tracking');
--> statement-breakpoint
CREATE TRIGGER order_day_counts_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON order_day_counts
  FOR EACH STATEMENT EXECUTE FUNCTION partstrack_notify_change('tracking');
--> statement-breakpoint
CREATE TRIGGER parcel_events_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON parcel_events
  FOR EACH STATEMENT EXECUTE FUNCTION partstrack_notify_change('tracking');
--> statement-breakpoint
CREATE TRIGGER users_changed AFTER INSERT OR DELETE OR TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION partstrack_notify_change('users');
--> statement-breakpoint
-- An update of users is announced unless it changed only what no cached caller holds: the time of
-- the last sign-in (every profile read writes it) and the profile's own settings. The columns are
-- left out by name, so a column added later is announced by default.
CREATE FUNCTION partstrack_notify_users_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM old_rows o FULL JOIN new_rows n ON n.id = o.id
    WHERE o.id IS NULL OR n.id IS NULL
      OR to_jsonb(n) - '{last_login_at,updated_at,locale,first_login}'::text[]
         IS DISTINCT FROM to_jsonb(o) - '{last_login_at,updated_at,locale,first_login}'::text[]
  ) THEN
    PERFORM pg_notify('partstrack_changed', 'users');
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_updated AFTER UPDATE ON users
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION partstrack_notify_users_update();
--> statement-breakpoint
CREATE TRIGGER user_identities_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON user_identities
  FOR EACH STATEMENT EXECUTE FUNCTION partstrack_notify_change('users');
--> statement-breakpoint
CREATE TRIGGER user_grants_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON user_grants
  FOR EACH STATEMENT EXECUTE FUNCTION partstrack_notify_change('users');
--> statement-breakpoint
CREATE TRIGGER user_attachments_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON user_attachments
  FOR EACH STATEMENT EXECUTE FUNCTION partstrack_notify_change('users');
