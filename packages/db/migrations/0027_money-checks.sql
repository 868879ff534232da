-- The database itself refuses an order or a ledger entry that money code must never write: an
-- unknown status, method, provider or ledger kind; a negative amount; more credited than bought or
-- more taken back than credited; a ledger entry whose sign is not its kind's (purchase, bonus and
-- deposit add bytes; usage, refund and chargeback take them; an operator's adjustment may do
-- either). Existing rows are checked first: a row that breaks a rule stops the migration with a
-- message naming it, rather than a bare constraint error or a silently "fixed" row.
DO $$
DECLARE
  offending text;
BEGIN
  SELECT string_agg(id::text, ', ') INTO offending FROM (
    SELECT id FROM orders
     WHERE payment_status NOT IN ('waiting', 'paid', 'partially_paid', 'failed', 'expired', 'refunded', 'cancelled')
        OR method NOT IN ('crypto', 'card')
        OR provider NOT IN ('sandbox', 'nowpayments', 'stripe')
        OR (network_type IS NOT NULL AND network_type NOT IN ('solana', 'polygon', 'base', 'ethereum'))
        OR amount_cents < 0 OR bytes < 0 OR price_amount_cents < 0 OR quantity <= 0
        OR credited_bytes < 0 OR credited_bytes > bytes
        OR reversed_bytes < 0 OR reversed_bytes > credited_bytes
     ORDER BY id LIMIT 20) AS bad;
  IF offending IS NOT NULL THEN
    RAISE EXCEPTION 'migration 0027: these orders break the money rules (status, method, provider, network, amounts, credited <= bytes, reversed <= credited); correct them and start again: %', offending;
  END IF;
  SELECT string_agg(id::text, ', ') INTO offending FROM (
    SELECT id FROM ledger_entries
     WHERE kind NOT IN ('purchase', 'bonus', 'usage', 'deposit', 'refund', 'chargeback', 'adjustment')
        OR (kind IN ('purchase', 'bonus', 'deposit') AND delta_bytes <= 0)
        OR (kind IN ('usage', 'refund', 'chargeback') AND delta_bytes >= 0)
     ORDER BY id LIMIT 20) AS bad;
  IF offending IS NOT NULL THEN
    RAISE EXCEPTION 'migration 0027: these ledger entries have an unknown kind or the wrong sign for their kind; correct them and start again: %', offending;
  END IF;
END $$;
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_check"
  CHECK ("payment_status" IN ('waiting', 'paid', 'partially_paid', 'failed', 'expired', 'refunded', 'cancelled'));
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_method_check" CHECK ("method" IN ('crypto', 'card'));
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_provider_check" CHECK ("provider" IN ('sandbox', 'nowpayments', 'stripe'));
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_network_check"
  CHECK ("network_type" IS NULL OR "network_type" IN ('solana', 'polygon', 'base', 'ethereum'));
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_amounts_check"
  CHECK ("amount_cents" >= 0 AND "bytes" >= 0 AND ("price_amount_cents" IS NULL OR "price_amount_cents" >= 0)
    AND ("quantity" IS NULL OR "quantity" > 0));
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_credited_check"
  CHECK ("credited_bytes" >= 0 AND "credited_bytes" <= "bytes");
--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_reversed_check"
  CHECK ("reversed_bytes" >= 0 AND "reversed_bytes" <= "credited_bytes");
--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_kind_check"
  CHECK ("kind" IN ('purchase', 'bonus', 'usage', 'deposit', 'refund', 'chargeback', 'adjustment'));
--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_sign_check"
  CHECK (CASE
    WHEN "kind" IN ('purchase', 'bonus', 'deposit') THEN "delta_bytes" > 0
    WHEN "kind" IN ('usage', 'refund', 'chargeback') THEN "delta_bytes" < 0
    ELSE true
  END);
