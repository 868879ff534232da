-- A refund of part of a group-buy deposit takes only that part out of it: amount_cents is what the
-- deposit still holds (held, credited, owed back or paid out) and refunded_cents what the payment
-- provider gave back (refunds and chargebacks); together they are what was paid. A deposit with
-- nothing left is reversed. Deposits reversed before this migration gave back all they held.
ALTER TABLE "deal_deposits" ADD COLUMN "refunded_cents" bigint DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "deal_deposits" DROP CONSTRAINT "deal_deposits_amount_check";
--> statement-breakpoint
UPDATE "deal_deposits" SET "refunded_cents" = "amount_cents", "amount_cents" = 0 WHERE "status" = 'reversed';
--> statement-breakpoint
ALTER TABLE "deal_deposits" ADD CONSTRAINT "deal_deposits_amount_check"
  CHECK ("amount_cents" >= 0 AND "refunded_cents" >= 0 AND ("amount_cents" > 0 OR "status" = 'reversed'));
--> statement-breakpoint
-- The operators' audit log is append-only: UPDATE and DELETE were refused row by row, and TRUNCATE,
-- which fires no row trigger, emptied it. A statement trigger refuses it too.
CREATE TRIGGER admin_audit_log_no_truncate BEFORE TRUNCATE ON admin_audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION bytetoll_audit_log_append_only();
