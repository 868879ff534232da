-- A card payment is no USDC payment: orders paid by card are labelled "Card" (what the checkout
-- now records), so history, the order page and the receipt say how the customer paid.
UPDATE "orders" SET "payment_token" = 'Card' WHERE "payment_token" = 'USDC (Card Payment)';
