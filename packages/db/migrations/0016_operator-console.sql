-- The operator's console. A disabled account (disabled_at set) is refused by the API (403) and by
-- the gateway (403 account_disabled); the users_changed trigger now also fires on disabled_at, so
-- every instance's cache and every gateway learn of it through the change feed within seconds.
ALTER TABLE "users" ADD COLUMN "disabled_at" timestamp with time zone;
--> statement-breakpoint
DROP TRIGGER users_changed ON users;
--> statement-breakpoint
CREATE TRIGGER users_changed AFTER UPDATE OF balance_bytes, email, disabled_at ON users
  FOR EACH ROW WHEN (
    OLD.balance_bytes IS DISTINCT FROM NEW.balance_bytes
    OR OLD.email IS DISTINCT FROM NEW.email
    OR OLD.disabled_at IS DISTINCT FROM NEW.disabled_at
  )
  EXECUTE FUNCTION bytetoll_notify_user();
--> statement-breakpoint
-- Every operator action: who (an e-mail, or "admin-token" / "cli"), what, on which subject, and the
-- state before and after. Append-only: the database refuses UPDATE and DELETE on it.
CREATE TABLE "admin_audit_log" (
  "id" bigserial PRIMARY KEY NOT NULL,
  "actor" text NOT NULL,
  "action" text NOT NULL,
  "subject_type" text NOT NULL,
  "subject_id" text NOT NULL,
  "before" jsonb,
  "after" jsonb,
  "note" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "admin_audit_log_created_idx" ON "admin_audit_log" ("created_at" DESC, "id" DESC);
--> statement-breakpoint
CREATE INDEX "admin_audit_log_subject_idx" ON "admin_audit_log" ("subject_type", "subject_id");
--> statement-breakpoint
CREATE FUNCTION bytetoll_audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'admin_audit_log is append-only';
END $$;
--> statement-breakpoint
CREATE TRIGGER admin_audit_log_append_only BEFORE UPDATE OR DELETE ON admin_audit_log
  FOR EACH ROW EXECUTE FUNCTION bytetoll_audit_log_append_only();
