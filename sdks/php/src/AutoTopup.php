<?php

declare(strict_types=1);

namespace ByteToll;

/**
 * Auto top-up: when the balance falls below threshold_gb, the saved card is charged amount_usd
 * (once per fall, at most monthly_cap_usd per calendar month, UTC). Get it with
 * `$client->autoTopup()`.
 */
final class AutoTopup
{
    public function __construct(private readonly Http $http)
    {
    }

    /**
     * @return array{enabled: bool, threshold_gb: float|int, amount_usd: float|int, monthly_cap_usd: float|int,
     *   card: ?array{brand: string, last4: string}, spent_this_month_usd: float|int, failures: int}
     */
    public function get(): array
    {
        return $this->http->send('GET', '/settings/auto-topup')['data'];
    }

    /**
     * Every setting at once. Turning it on without a saved card is refused (409 "Add a card
     * first"); amount_usd must be at least the minimum order (1 GB at the list price).
     */
    public function set(bool $enabled, float|int $thresholdGb, float|int $amountUsd, float|int $monthlyCapUsd): array
    {
        if ($thresholdGb < 0.01 || $thresholdGb > 100000) {
            throw ByteTollException::invalidArgument('threshold_gb must be from 0.01 to 100,000');
        }
        if ($amountUsd <= 0 || $amountUsd > 100000 || !self::cents($amountUsd)) {
            throw ByteTollException::invalidArgument('amount_usd must be more than 0 and at most 100,000, with at most 2 decimals');
        }
        if ($monthlyCapUsd < $amountUsd || $monthlyCapUsd > 1000000 || !self::cents($monthlyCapUsd)) {
            throw ByteTollException::invalidArgument('monthly_cap_usd must be at least amount_usd and at most 1,000,000, with at most 2 decimals');
        }
        $body = [
            'enabled' => $enabled,
            'threshold_gb' => $thresholdGb,
            'amount_usd' => $amountUsd,
            'monthly_cap_usd' => $monthlyCapUsd,
        ];
        return $this->http->send('PUT', '/settings/auto-topup', [], $body)['data'];
    }

    /** The card page that saves a card (Stripe Checkout in setup mode): send the customer's browser there. */
    public function addCard(): string
    {
        return $this->http->send('POST', '/settings/auto-topup/card')['data']['redirect_url'];
    }

    /** Removes the saved card, which turns auto top-up off. */
    public function removeCard(): array
    {
        return $this->http->send('DELETE', '/settings/auto-topup/card')['data'];
    }

    private static function cents(float|int $usd): bool
    {
        return abs(round($usd * 100) - $usd * 100) < 1e-6;
    }
}
