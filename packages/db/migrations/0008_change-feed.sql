-- The change feed (decision 006): every write that can make a server's cached read stale announces
-- itself on the channel bytetoll_changes as "<kind>:<key>". NOTIFY is transactional — delivered
-- at commit, never for a rolled-back write — and triggers cover every writer (the API, the
-- gateway's flush, the operator CLI, plain SQL), so caches need no cooperation from the code that
-- writes. Identical payloads within one transaction are delivered once. Keys: user, session and
-- orders carry the user id (a session change concerns all of that user's cached sessions), an API
-- token its hash.
CREATE FUNCTION bytetoll_notify_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('bytetoll_changes', 'user:' || OLD.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_changed AFTER UPDATE OF balance_bytes, email ON users
  FOR EACH ROW WHEN (OLD.balance_bytes IS DISTINCT FROM NEW.balance_bytes OR OLD.email IS DISTINCT FROM NEW.email)
  EXECUTE FUNCTION bytetoll_notify_user();
--> statement-breakpoint
CREATE TRIGGER users_deleted AFTER DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION bytetoll_notify_user();
--> statement-breakpoint
CREATE FUNCTION bytetoll_notify_session() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('bytetoll_changes', 'session:' || OLD.user_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER sessions_changed AFTER UPDATE OR DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION bytetoll_notify_session();
--> statement-breakpoint
CREATE FUNCTION bytetoll_notify_api_token() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('bytetoll_changes', 'api_token:' || OLD.token_hash);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER api_tokens_changed AFTER UPDATE OR DELETE ON api_tokens
  FOR EACH ROW EXECUTE FUNCTION bytetoll_notify_api_token();
--> statement-breakpoint
CREATE FUNCTION bytetoll_notify_orders() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('bytetoll_changes', 'orders:' || OLD.user_id);
  ELSE
    PERFORM pg_notify('bytetoll_changes', 'orders:' || NEW.user_id);
    IF TG_OP = 'UPDATE' AND OLD.user_id IS DISTINCT FROM NEW.user_id THEN
      PERFORM pg_notify('bytetoll_changes', 'orders:' || OLD.user_id);
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER orders_changed AFTER INSERT OR UPDATE OR DELETE ON orders
  FOR EACH ROW EXECUTE FUNCTION bytetoll_notify_orders();
