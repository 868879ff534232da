<?php

declare(strict_types=1);

use ByteToll\ByteTollException;
use ByteToll\Client;
use PHPUnit\Framework\TestCase;

/** Sub-users through the PHP client against a running install. */
final class SubuserTest extends TestCase
{
    private static function client(): Client
    {
        return new Client(RunningInstall::$info['url'], RunningInstall::$info['api_token']);
    }

    public function testCreatesListsChangesRenewsAndDeletesASubuser(): void
    {
        $client = self::client();
        $created = $client->createSubuser('php job', 2.5, 'month');
        self::assertSame('php job', $created['label']);
        self::assertEquals(2.5, $created['limit_gb']);
        self::assertSame('month', $created['limit_period']);
        self::assertMatchesRegularExpression('/^su[a-z0-9]{10}$/', $created['username']);
        self::assertContains($created['id'], array_column($client->listSubusers(), 'id'));

        $changed = $client->updateSubuser($created['id'], ['enabled' => false, 'limit_gb' => null]);
        self::assertFalse($changed['enabled']);
        self::assertNull($changed['limit_gb']);
        $renewed = $client->regenerateSubuserPassword($created['id']);
        self::assertNotSame($created['password'], $renewed['password']);
        $bySubuser = $client->usage('subuser', 7);
        self::assertContains('php job', array_column($bySubuser, 'value'));
        self::assertCount(1, $client->usage('proxy_type', 7, null, $created['id']));

        $client->deleteSubuser($created['id']);
        try {
            $client->getSubuser($created['id']);
            self::fail('a deleted sub-user was still found');
        } catch (ByteTollException $error) {
            self::assertSame(404, $error->getStatus());
        }
    }

    public function testRefusesBadArgumentsBeforeSending(): void
    {
        $client = self::client();
        foreach ([
            [fn () => $client->createSubuser(''), 'label'],
            [fn () => $client->createSubuser('x', 0), 'limit_gb'],
            [fn () => $client->createSubuser('x', 1, 'year'), 'limit_period'],
            [fn () => $client->updateSubuser('id', []), 'changes'],
            [fn () => $client->updateSubuser('id', ['owner' => 'me']), 'changes'],
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
