<?php

declare(strict_types=1);

use ByteToll\ByteTollException;
use ByteToll\Client;
use PHPUnit\Framework\TestCase;

/** The PHP client against a running install: every call, the server's 4xx answers, bad arguments. */
final class ClientTest extends TestCase
{
    private static function client(?string $token = null): Client
    {
        return new Client(RunningInstall::$info['url'], $token ?? RunningInstall::$info['api_token']);
    }

    /** The ByteTollException a call throws (the test fails if it does not). */
    private function failure(callable $call): ByteTollException
    {
        try {
            $call();
        } catch (ByteTollException $error) {
            return $error;
        }
        self::fail('expected a ByteTollException');
    }

    private static function post(string $path, array $body = [], array $headers = []): array
    {
        $curl = curl_init(RunningInstall::$info['url'] . $path);
        curl_setopt_array($curl, [
            CURLOPT_POST => true,
            CURLOPT_RETURNTRANSFER => true,
        ]);
        if ($body !== []) {
            curl_setopt($curl, CURLOPT_HTTPHEADER, array_merge(['Content-Type: application/json'], $headers));
            curl_setopt($curl, CURLOPT_POSTFIELDS, json_encode($body));
        }
        $answer = json_decode((string) curl_exec($curl), true);
        curl_close($curl);
        return $answer;
    }

    public function testBalanceUsageConfigAndGateway(): void
    {
        $client = self::client();
        self::assertSame(['balance_gb' => 1, 'balance_bytes' => 1000000000], $client->balance());
        self::assertCount(14, $client->usage('day', 14));
        self::assertSame([], $client->usage('domain', 7, true));
        self::assertSame(
            [['mobile_gb' => 0, 'dc_gb' => 0, 'mobile_requests' => 0, 'dc_requests' => 0, 'mobile_bytes' => 0, 'dc_bytes' => 0]],
            $client->usage('proxy_type'),
        );
        self::assertSame('127.0.0.1', $client->config()['gateway']['host']);
        self::assertSame('127.0.0.1', $client->gateway()['host']);
    }

    public function testAWrongTokenIsTheServers401(): void
    {
        $error = $this->failure(fn () => self::client('bt_wrong')->balance());
        self::assertSame(401, $error->getStatus());
        self::assertSame('Unauthorized', $error->getMessage());
    }

    public function testProxyUrlFetchesThroughTheGatewayAndTheConnectionTestPasses(): void
    {
        $client = self::client();
        $plain = $client->credentials();
        self::assertSame($plain['username'] . '-session-abcd1234-routing-smart', $client->credentials('abcd1234', true)['username']);
        self::assertSame(
            $plain['username'] . '-country-de-session-s1-sesstime-60',
            $client->credentials('s1', false, 'DE', 60)['username'],
        );
        $url = $client->proxyUrl(true);
        self::assertMatchesRegularExpression('#^http://[^:]+-session-[A-Za-z0-9]{8}:[^@]+@127\.0\.0\.1:\d+$#', $url);

        $curl = curl_init(RunningInstall::$info['origin_url']);
        curl_setopt_array($curl, [CURLOPT_RETURNTRANSFER => true, CURLOPT_PROXY => $url]);
        self::assertSame('hello from the origin', curl_exec($curl));
        curl_close($curl);

        self::assertArrayHasKey('ip', $client->testConnection());

        // SOCKS5: a socks5h:// URL that PHP's curl takes as it is.
        $socks = $client->proxyUrl(false, false, 'socks5');
        self::assertMatchesRegularExpression('#^socks5h://[^:]+:[^@]+@127\.0\.0\.1:\d+$#', $socks);
        $curl = curl_init(RunningInstall::$info['origin_url']);
        curl_setopt_array($curl, [CURLOPT_RETURNTRANSFER => true, CURLOPT_PROXY => $socks]);
        self::assertSame('hello from the origin', curl_exec($curl));
        curl_close($curl);
    }

    public function testOrders(): void
    {
        $client = self::client();
        $order = $client->createCryptoOrder(7, 'ethereum');
        self::assertSame('waiting', $order['payment_status']);
        self::assertIsString($order['pay_address']);
        $page = $client->listTransactions(1, 5);
        self::assertSame($order['order_id'], $page['data'][0]['order_id']);
        self::assertSame(5, $page['per_page']);
        self::assertSame($order['order_id'], $client->getTransaction($order['order_id'])['order_id']);
        $missing = $this->failure(fn () => $client->getTransaction('no-such-order'));
        self::assertSame([404, 'Order not found'], [$missing->getStatus(), $missing->getMessage()]);
    }

    public function testCancellingAWaitingOrderAndTheHistory(): void
    {
        $client = self::client();
        $order = $client->createCryptoOrder(6, 'solana');
        $cancelled = $client->cancelTransaction($order['order_id']);
        self::assertSame([$order['order_id'], 'cancelled'], [$cancelled['order_id'], $cancelled['payment_status']]);
        self::assertSame('cancelled', $client->getTransaction($order['order_id'])['payment_status']);
        $again = $this->failure(fn () => $client->cancelTransaction($order['order_id']));
        self::assertSame(
            [409, 'Only an unpaid order can be cancelled: this one is cancelled.'],
            [$again->getStatus(), $again->getMessage()],
        );
        $missing = $this->failure(fn () => $client->cancelTransaction('no-such-order'));
        self::assertSame(404, $missing->getStatus());

        $history = $client->history(1, 100);
        self::assertSame(['order', 'cancelled'], [$history['data'][0]['kind'], $history['data'][0]['order']['payment_status']]);
        $oldest = $history['data'][count($history['data']) - 1];
        self::assertSame(['bonus', 1, null], [$oldest['kind'], $oldest['gb'], $oldest['order_id']]);
        self::assertSame(count($history['data']), $history['total']);
    }

    public function testDealsAndAGroupBuyDeposit(): void
    {
        $client = self::client();
        $deal = self::post('/admin/deals', [
            'deal_type' => 'group_buy',
            'deal_title' => 'PHP group buy',
            'deal_price' => 1.5,
            'deal_start_time' => gmdate('Y-m-d\TH:i:s\Z', time() - 60),
            'deal_end_time' => gmdate('Y-m-d\TH:i:s\Z', time() + 86400),
            'deal_target_gb' => 100,
        ], ['Authorization: Bearer ' . RunningInstall::$info['admin_token']])['data'];
        self::assertContains($deal['id'], array_column($client->listDeals(), 'id'));
        self::assertSame('group_buy', $client->getDeal($deal['id'])['deal_type']);

        $order = $client->createCryptoOrder(4, 'solana', $deal['id']);
        $paid = self::post("/dev/orders/{$order['order_id']}/pay");
        self::assertTrue($paid['success'] ?? false, json_encode($paid));
        self::assertEquals(['total_deposit' => 4, 'credited_deposit' => 0], $client->dealDeposits($deal['id']));
        self::assertIsString($client->withdrawDeal($deal['id'], '0x52908400098527886E0F7030069857D2E4169EE7'));
        $again = $this->failure(fn () => $client->withdrawDeal($deal['id'], '0x52908400098527886E0F7030069857D2E4169EE7'));
        self::assertSame(409, $again->getStatus());
        self::assertSame(404, $this->failure(fn () => $client->getDeal('zzzzzzzz'))->getStatus());
    }

    public function testHostnamesAndRoutingRules(): void
    {
        $client = self::client();
        self::assertSame(['example.com', 'shop.example.org'], $client->saveHostnames(['https://Example.com/', 'shop.example.org']));
        self::assertSame(['example.com', 'shop.example.org'], $client->hostnames());
        self::assertIsArray($client->routingRules());
        $error = $this->failure(fn () => $client->setRoutingRule(987654, true));
        self::assertSame([404, 'Routing rule not found'], [$error->getStatus(), $error->getMessage()]);
        $invalid = $this->failure(fn () => $client->saveHostnames(['not a host']));
        self::assertSame([400, 'Please enter valid hostnames'], [$invalid->getStatus(), $invalid->getMessage()]);
    }

    public function testBadArgumentsAreRefusedBeforeSending(): void
    {
        // An unreachable address: a request would fail as "network", not "invalid_argument".
        $client = new Client('http://127.0.0.1:9', 'bt_unused', 0);
        $cases = [
            'group_by must be one of day, domain, proxy_type, subuser' => fn () => $client->usage('week'),
            'days must be one of 1, 7, 14, 30, 90' => fn () => $client->usage('day', 3),
            'amount must be from 1 to 100000 USD' => fn () => $client->createCryptoOrder(0.5, 'base'),
            'network_type must be one of solana, polygon, base, ethereum' => fn () => $client->createCryptoOrder(5, 'bitcoin'),
            'per_page must be between 1 and 100' => fn () => $client->listTransactions(1, 500),
            'orderId must be a non-empty string of at most 64 characters' => fn () => $client->getTransaction(''),
            'page must be at least 1' => fn () => $client->history(0),
            'sticky must be true, false or a session id of 1–32 letters or digits' => fn () => $client->credentials('not_alnum'),
            "Bad country code 'usa'" => fn () => $client->credentials(false, false, 'usa'),
            'sessionMinutes must be a whole number from 1 to 1440' => fn () => $client->credentials(true, false, null, 0),
            'wallet_address: Please enter a valid wallet address (0x… or a Solana address)' => fn () => $client->withdrawDeal('abcdefgh', 'nope'),
            'At least one hostname is required' => fn () => $client->saveHostnames([' ']),
            'ruleId must be a whole number of at least 1' => fn () => $client->setRoutingRule(0, true),
        ];
        foreach ($cases as $message => $call) {
            $error = $this->failure($call);
            self::assertSame([0, 'invalid_argument', $message], [$error->getStatus(), $error->getKind(), $error->getMessage()]);
        }
        $blank = $this->failure(fn () => $client->cancelTransaction(' '));
        self::assertSame(
            [0, 'invalid_argument', 'orderId must be a non-empty string of at most 64 characters'],
            [$blank->getStatus(), $blank->getKind(), $blank->getMessage()],
        );
        $down = $this->failure(fn () => $client->balance());
        self::assertSame('network', $down->getKind());
        self::assertStringContainsString('Cannot reach http://127.0.0.1:9', $down->getMessage());
        $this->expectExceptionMessage('baseUrl must be an http:// or https:// URL');
        new Client('localhost:3000', 'bt_x');
    }
}
