<?php

declare(strict_types=1);

namespace ByteToll;

/** Checks the ByteToll-Signature header of a webhook request. */
final class Webhook
{
    /** How far a signature's time may be from now before it is refused (an old request replayed). */
    public const TOLERANCE_SECONDS = 300;

    /**
     * Whether $body (the raw request body, as received) carries a valid signature for $secret:
     * the HMAC-SHA256 of "t.body" matches (compared in constant time) and t is within 5 minutes.
     */
    public static function verify(string $body, ?string $header, string $secret, int $tolerance = self::TOLERANCE_SECONDS, ?int $now = null): bool
    {
        if ($header === null || $secret === '') {
            return false;
        }
        $parts = [];
        foreach (explode(',', $header) as $part) {
            $pair = explode('=', trim($part), 2);
            if (count($pair) === 2) {
                $parts[$pair[0]] = $pair[1];
            }
        }
        $t = $parts['t'] ?? '';
        $given = strtolower($parts['v1'] ?? '');
        if (preg_match('/^\d{1,12}$/', $t) !== 1 || preg_match('/^[0-9a-f]{64}$/', $given) !== 1) {
            return false;
        }
        if (abs(($now ?? time()) - (int) $t) > $tolerance) {
            return false;
        }
        return hash_equals(hash_hmac('sha256', $t . '.' . $body, $secret), $given);
    }
}
