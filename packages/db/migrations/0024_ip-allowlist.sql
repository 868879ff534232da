-- IP allowlist (issue 26): addresses and ranges from which a connection without proxy credentials
-- is admitted as the account that listed them. One account per address: the exclusion constraint
-- refuses an entry overlapping any other (the service checks an account's own list first, so a
-- conflict left for the constraint is always another account's). Ranges are kept narrow (/24 for
-- IPv4, /48 for IPv6) by the service. Changes are announced on the change feed as
-- "allowlist:<user id>", so every gateway instance reloads the list within moments.
CREATE TABLE "ip_allowlist" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
	"range" cidr NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ip_allowlist_no_overlap" EXCLUDE USING gist ("range" inet_ops WITH &&)
);
--> statement-breakpoint
CREATE INDEX "ip_allowlist_user_idx" ON "ip_allowlist" ("user_id");
--> statement-breakpoint
CREATE FUNCTION bytetoll_notify_allowlist() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('bytetoll_changes', 'allowlist:' || OLD.user_id);
  ELSE
    PERFORM pg_notify('bytetoll_changes', 'allowlist:' || NEW.user_id);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER ip_allowlist_changed AFTER INSERT OR UPDATE OR DELETE ON ip_allowlist
  FOR EACH ROW EXECUTE FUNCTION bytetoll_notify_allowlist();
