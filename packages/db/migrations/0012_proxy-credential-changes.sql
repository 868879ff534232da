-- Proxy credentials join the change feed (decision 006): when a credential's password, owner or
-- name changes, or the credential is deleted (also by its user's deletion), every gateway hears
-- "proxy_credential:<username>" on bytetoll_changes at commit, forgets the cached credential and
-- closes the connections that authenticated with it. Other columns (use_sticky) change nothing a
-- gateway keeps, so they stay silent.
CREATE FUNCTION bytetoll_notify_proxy_credential() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('bytetoll_changes', 'proxy_credential:' || OLD.username);
  IF TG_OP = 'UPDATE' THEN
    IF NEW.username IS DISTINCT FROM OLD.username THEN
      PERFORM pg_notify('bytetoll_changes', 'proxy_credential:' || NEW.username);
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER proxy_credentials_changed AFTER UPDATE OF password_hash, user_id, username ON proxy_credentials
  FOR EACH ROW WHEN (
    OLD.password_hash IS DISTINCT FROM NEW.password_hash
    OR OLD.user_id IS DISTINCT FROM NEW.user_id
    OR OLD.username IS DISTINCT FROM NEW.username
  )
  EXECUTE FUNCTION bytetoll_notify_proxy_credential();
--> statement-breakpoint
CREATE TRIGGER proxy_credentials_deleted AFTER DELETE ON proxy_credentials
  FOR EACH ROW EXECUTE FUNCTION bytetoll_notify_proxy_credential();
