<?php

declare(strict_types=1);

use ByteToll\ByteTollException;
use ByteToll\Client;
use PHPUnit\Framework\TestCase;

/** Auto top-up through the PHP client against a running install (the sandbox card page). */
final class AutoTopupTest extends TestCase
{
    private static function client(): Client
    {
        return new Client(RunningInstall::$info['url'], RunningInstall::$info['api_token']);
    }

    public function testIsRefusedWithoutACardThenSavesOneTurnsOnAndRemovesIt(): void
    {
        $topup = self::client()->autoTopup();
        self::assertFalse($topup->get()['enabled']);
        self::assertNull($topup->get()['card']);
        try {
            $topup->set(true, 1, 30, 90);
            self::fail('turned on without a card');
        } catch (ByteTollException $error) {
            self::assertSame(409, $error->getStatus());
            self::assertSame('Add a card first', $error->getMessage());
        }
        // The customer's browser opens the card page; the sandbox's saves a test card.
        $url = $topup->addCard();
        $context = stream_context_create(['http' => ['method' => 'POST', 'follow_location' => 0, 'ignore_errors' => true]]);
        file_get_contents($url . '?card=pays', false, $context);
        self::assertSame(['brand' => 'visa', 'last4' => '4242'], $topup->get()['card']);
        $saved = $topup->set(true, 1, 30, 90);
        self::assertTrue($saved['enabled']);
        self::assertEquals(30, $saved['amount_usd']);
        $removed = $topup->removeCard();
        self::assertFalse($removed['enabled']);
        self::assertNull($removed['card']);
    }

    public function testRefusesBadArgumentsBeforeSending(): void
    {
        $topup = self::client()->autoTopup();
        foreach ([
            [fn () => $topup->set(true, 0, 30, 90), 'threshold_gb'],
            [fn () => $topup->set(true, 1, 3.333, 90), 'amount_usd'],
            [fn () => $topup->set(true, 1, 30, 10), 'monthly_cap_usd'],
        ] as [$call, $field]) {
            try {
                $call();
                self::fail("expected a refusal naming {$field}");
            } catch (ByteTollException $error) {
                self::assertStringContainsString($field, $error->getMessage());
                self::assertSame('invalid_argument', $error->getKind());
            }
        }
    }
}
