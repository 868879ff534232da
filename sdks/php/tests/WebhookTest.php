<?php

declare(strict_types=1);

use ByteToll\Webhook;
use PHPUnit\Framework\TestCase;

/** ByteToll\Webhook::verify: the signature a ByteToll server puts on every webhook. */
final class WebhookTest extends TestCase
{
    private const SECRET = 'whsec_0123456789abcdef0123456789abcdef0123456789abcdef';
    private const BODY = '{"id":"evt_1","type":"ping","created":1795400000,"data":{}}';

    private static function sign(int $t, string $body = self::BODY, string $secret = self::SECRET): string
    {
        return 't=' . $t . ',v1=' . hash_hmac('sha256', $t . '.' . $body, $secret);
    }

    public function testAcceptsAFreshSignature(): void
    {
        self::assertTrue(Webhook::verify(self::BODY, self::sign(time()), self::SECRET));
        self::assertTrue(Webhook::verify(self::BODY, self::sign(time() - 299), self::SECRET));
    }

    public function testRefusesChangedBodiesOtherSecretsOldTimesAndGarbage(): void
    {
        self::assertFalse(Webhook::verify(str_replace('ping', 'pong', self::BODY), self::sign(time()), self::SECRET));
        self::assertFalse(Webhook::verify(self::BODY, self::sign(time(), self::BODY, 'whsec_other'), self::SECRET));
        self::assertFalse(Webhook::verify(self::BODY, self::sign(time() - 301), self::SECRET));
        self::assertFalse(Webhook::verify(self::BODY, self::sign(time() + 301), self::SECRET));
        foreach (['', 't=,v1=', 'v1=' . str_repeat('a', 64), 't=' . time(), 'garbage', null] as $header) {
            self::assertFalse(Webhook::verify(self::BODY, $header, self::SECRET));
        }
    }
}
