-- Proxy-list download URLs: a scraper fleet fetches its list without signing in. Only a SHA-256 of
-- the secret is kept, so a copy of the database cannot fetch anyone's list; deleting the row
-- revokes the URL, and deleting the sub-user it names revokes it too.
CREATE TABLE "proxy_list_links" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "subuser_id" uuid REFERENCES "subusers"("id") ON DELETE CASCADE,
  "secret_hash" text NOT NULL,
  "label" text,
  "options" jsonb NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "last_used_at" timestamp with time zone,
  CONSTRAINT "proxy_list_links_secret_hash_unique" UNIQUE ("secret_hash")
);
--> statement-breakpoint
CREATE INDEX "proxy_list_links_user_idx" ON "proxy_list_links" ("user_id", "created_at");
--> statement-breakpoint
-- Billing details a company books invoices with; copied into each invoice when it is issued, so a
-- later change never alters an issued document.
CREATE TABLE "billing_details" (
  "user_id" uuid PRIMARY KEY NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
  "company" text,
  "address" text,
  "country" text,
  "vat_id" text,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- One counter per kind and year. Taking a number updates its row in the transaction that marks the
-- order paid (or refunded): concurrent instances queue on the row lock, and a rolled-back payment
-- gives its number back, so numbers are consecutive with no gaps and no duplicates.
CREATE TABLE "invoice_counters" (
  "kind" text NOT NULL,
  "year" integer NOT NULL,
  "last_number" integer NOT NULL,
  CONSTRAINT "invoice_counters_pk" PRIMARY KEY ("kind", "year"),
  CONSTRAINT "invoice_counters_kind_check" CHECK ("kind" IN ('invoice', 'credit_note'))
);
--> statement-breakpoint
CREATE TABLE "invoices" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "kind" text NOT NULL,
  "number" text NOT NULL,
  "year" integer NOT NULL,
  "sequence" integer NOT NULL,
  "order_id" uuid NOT NULL REFERENCES "orders"("id") ON DELETE RESTRICT,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE RESTRICT,
  "amount_cents" bigint NOT NULL,
  "customer" jsonb NOT NULL,
  "operator" jsonb NOT NULL,
  "issued_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "invoices_number_unique" UNIQUE ("number"),
  CONSTRAINT "invoices_order_kind_unique" UNIQUE ("order_id", "kind"),
  CONSTRAINT "invoices_kind_check" CHECK ("kind" IN ('invoice', 'credit_note'))
);
--> statement-breakpoint
CREATE INDEX "invoices_user_idx" ON "invoices" ("user_id", "issued_at");
