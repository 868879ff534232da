<?php

declare(strict_types=1);

namespace ByteToll;

/**
 * A ByteToll client: every call the dashboard makes, with the API token of the Connect page.
 * Answers are the API's `data` as associative arrays; failures are ByteTollException.
 */
final class Client
{
    public const USAGE_GROUPINGS = ['day', 'domain', 'proxy_type', 'subuser'];
    public const SUBUSER_LIMIT_PERIODS = ['day', 'week', 'month', 'total'];
    public const USAGE_PERIODS = [1, 7, 14, 30, 90];
    public const NETWORKS = ['solana', 'polygon', 'base', 'ethereum'];
    private const SESSION_ID = '/^[A-Za-z0-9]{1,32}$/';
    private const WALLET = '/^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})$/';

    private readonly Http $http;

    public function __construct(
        string $baseUrl,
        string $apiToken,
        int $retries = 3,
        int $retryBaseMs = 1000,
    ) {
        if (!preg_match('#^https?://[^/]#', $baseUrl) || filter_var($baseUrl, FILTER_VALIDATE_URL) === false) {
            throw ByteTollException::invalidArgument('baseUrl must be an http:// or https:// URL');
        }
        if (trim($apiToken) === '') {
            throw ByteTollException::invalidArgument('apiToken is required (the API token of the Connect page)');
        }
        if ($retries < 0 || $retryBaseMs < 0) {
            throw ByteTollException::invalidArgument('retries and retryBaseMs must be numbers of at least 0');
        }
        $this->http = new Http($baseUrl, trim($apiToken), $retries, $retryBaseMs);
    }

    /** @return array{balance_gb: float|int, balance_bytes: int} */
    public function balance(): array
    {
        return $this->data('GET', '/account/status');
    }

    /** Prices, free allowance, gateway address and links of this install. */
    public function config(): array
    {
        return $this->data('GET', '/config');
    }

    /** The proxy server: host, fixed IP and ports. */
    public function gateway(): array
    {
        return $this->data('GET', '/gateway');
    }

    /**
     * Usage by UTC day, by domain, by proxy type or by sub-user over 1, 7, 14, 30 or 90 days;
     * $subuser (a sub-user's id, or "main" for your own credentials) keeps one sub-user's usage.
     */
    public function usage(string $groupBy, ?int $days = null, ?bool $others = null, ?string $subuser = null): array
    {
        if (!in_array($groupBy, self::USAGE_GROUPINGS, true)) {
            throw ByteTollException::invalidArgument('group_by must be one of ' . implode(', ', self::USAGE_GROUPINGS));
        }
        if ($days !== null && !in_array($days, self::USAGE_PERIODS, true)) {
            throw ByteTollException::invalidArgument('days must be one of ' . implode(', ', self::USAGE_PERIODS));
        }
        $query = [
            'group_by' => $groupBy,
            'days' => $days,
            'others' => $others === null ? null : ($others ? 'true' : 'false'),
            'subuser' => $subuser,
        ];
        return $this->data('GET', '/proxies/usage', $query);
    }

    /**
     * Proxy username (grammar `{username}[-country-CC][-city-NAME][-session-ID][-sesstime-MINUTES][-routing-smart]`)
     * and password. $sticky: true for a random session id, or a session id of 1–32 letters or digits;
     * $country: an ISO 3166-1 alpha-2 code (the gateway refuses one that is not assigned);
     * $sessionMinutes: how long a sticky session keeps its exit after its last use (1–1440, default 10).
     */
    public function credentials(
        bool|string $sticky = false,
        bool $smart = false,
        ?string $country = null,
        ?int $sessionMinutes = null,
    ): array {
        $suffix = self::usernameSuffix($sticky, $smart, $country, $sessionMinutes);
        $latest = $this->data('GET', '/credentials/latest');
        $latest['username'] .= $suffix;
        return $latest;
    }

    /**
     * Proxy settings. `$protocol` 'http' (default) gives `http://user:pass@host:port`; 'socks5' gives
     * `socks5h://user:pass@host:port` for SOCKS5 clients (curl's CURLOPT_PROXY takes either).
     *
     * @return array{username: string, password: string, host: string, port: int, url: string}
     */
    public function proxy(
        bool|string $sticky = false,
        bool $smart = false,
        string $protocol = 'http',
        ?string $country = null,
        ?int $sessionMinutes = null,
    ): array {
        if ($protocol !== 'http' && $protocol !== 'socks5') {
            throw ByteTollException::invalidArgument('protocol must be http or socks5');
        }
        $credentials = $this->credentials($sticky, $smart, $country, $sessionMinutes);
        $server = $this->gateway();
        $host = str_contains($server['host'], ':') ? "[{$server['host']}]" : $server['host'];
        $auth = rawurlencode($credentials['username']) . ':' . rawurlencode($credentials['password']);
        if ($protocol === 'socks5' && ($server['socks_port'] ?? null) === null) {
            throw ByteTollException::invalidArgument('SOCKS5 is turned off on this install');
        }
        $port = $protocol === 'socks5' ? $server['socks_port'] : $server['http_port'];
        $scheme = $protocol === 'socks5' ? 'socks5h' : 'http';
        return [
            'username' => $credentials['username'],
            'password' => $credentials['password'],
            'host' => $server['host'],
            'port' => $port,
            'url' => "{$scheme}://{$auth}@{$host}:{$port}",
        ];
    }

    /** `http://user:pass@host:port` (or `socks5h://…` with 'socks5'), for curl's CURLOPT_PROXY or any client. */
    public function proxyUrl(
        bool|string $sticky = false,
        bool $smart = false,
        string $protocol = 'http',
        ?string $country = null,
        ?int $sessionMinutes = null,
    ): string {
        return $this->proxy($sticky, $smart, $protocol, $country, $sessionMinutes)['url'];
    }

    /** Fetches IP information through the gateway with these credentials (uses a few KB of data). */
    public function testConnection(bool|string $sticky = false, bool $smart = false): array
    {
        $proxy = $this->proxy($sticky, $smart);
        return $this->data('POST', '/credentials/test', [], [
            'username' => $proxy['username'],
            'password' => $proxy['password'],
            'proxy_host' => $proxy['host'],
            'proxy_port' => $proxy['port'],
        ]);
    }

    /** Top-up orders, newest first: data, current_page, last_page, per_page, total, from, to. */
    public function listTransactions(int $page = 1, int $perPage = 10, ?string $source = null): array
    {
        if ($page < 1) {
            throw ByteTollException::invalidArgument('page must be at least 1');
        }
        if ($perPage < 1 || $perPage > 100) {
            throw ByteTollException::invalidArgument('per_page must be between 1 and 100');
        }
        if ($source !== null && !in_array($source, ['crypto', 'card'], true)) {
            throw ByteTollException::invalidArgument('source must be crypto or card');
        }
        $answer = $this->http->send('GET', '/transactions', ['page' => $page, 'per_page' => $perPage, 'source' => $source]);
        unset($answer['success']);
        return $answer;
    }

    public function getTransaction(string $orderId): array
    {
        return $this->data('GET', '/transactions/' . self::id('orderId', $orderId));
    }

    /**
     * Cancels one of your orders that is still waiting for its payment; answers it `cancelled`.
     * Any other order is refused (409) and stays as it is; a payment that still arrives for a
     * cancelled order is credited.
     */
    public function cancelTransaction(string $orderId): array
    {
        return $this->data('POST', '/transactions/' . self::id('orderId', $orderId) . '/cancel');
    }

    /**
     * Orders and the balance changes that are not orders (free GB, operator adjustments, group-buy
     * deposits credited, refunds, chargebacks), newest first: rows of kind "order" carry the order,
     * the others gb (negative when taken back), note and order_id.
     */
    public function history(int $page = 1, int $perPage = 10): array
    {
        if ($page < 1) {
            throw ByteTollException::invalidArgument('page must be at least 1');
        }
        if ($perPage < 1 || $perPage > 100) {
            throw ByteTollException::invalidArgument('per_page must be between 1 and 100');
        }
        $answer = $this->http->send('GET', '/history', ['page' => $page, 'per_page' => $perPage]);
        unset($answer['success']);
        return $answer;
    }

    /** An order to pay in USDC: the answer holds the pay address and amount. It pays nothing. */
    public function createCryptoOrder(float|int $amount, string $networkType, ?string $dealId = null, ?int $quantity = null): array
    {
        if ($amount < 1 || $amount > 100000) {
            throw ByteTollException::invalidArgument('amount must be from 1 to 100000 USD');
        }
        if (abs(round($amount * 100) - $amount * 100) > 1e-6) {
            throw ByteTollException::invalidArgument('amount must have at most 2 decimals');
        }
        if (!in_array($networkType, self::NETWORKS, true)) {
            throw ByteTollException::invalidArgument('network_type must be one of ' . implode(', ', self::NETWORKS));
        }
        $body = ['amount' => $amount, 'method' => 'crypto', 'network_type' => $networkType];
        if ($dealId !== null) {
            $body['deal_id'] = $dealId;
        }
        if ($quantity !== null) {
            $body['quantity'] = $quantity;
        }
        return $this->data('POST', '/transactions', [], $body);
    }

    /** Live and pending deals, and those that ended in the last 7 days. */
    public function listDeals(): array
    {
        return $this->data('GET', '/deals/latestv2');
    }

    public function getDeal(string $dealId): array
    {
        return $this->data('GET', '/deals/' . self::id('dealId', $dealId));
    }

    /** @return array{total_deposit: float|int, credited_deposit: float|int} the caller's deposit in a group buy (held or owed back; credited: bought data) */
    public function dealDeposits(string $dealId): array
    {
        return $this->data('GET', '/deals/' . self::id('dealId', $dealId) . '/deposits');
    }

    /** Asks for the caller's group-buy deposit back to a wallet; answers the server's message. */
    public function withdrawDeal(string $dealId, string $walletAddress): string
    {
        $path = '/deals/' . self::id('dealId', $dealId) . '/withdraw';
        if (!preg_match(self::WALLET, trim($walletAddress))) {
            throw ByteTollException::invalidArgument('wallet_address: Please enter a valid wallet address (0x… or a Solana address)');
        }
        return $this->http->send('POST', $path, [], ['wallet_address' => trim($walletAddress)])['message'];
    }

    /** @return list<string> the host names Intelligence learns for the caller */
    public function hostnames(): array
    {
        return array_column($this->data('GET', '/settings/hostnames')['hostnames'], 'hostname');
    }

    /**
     * Replaces the host names (stored bare, lower-case, de-duplicated).
     * @param list<string> $hostnames
     * @return list<string> the saved list
     */
    public function saveHostnames(array $hostnames): array
    {
        if (array_filter($hostnames, static fn ($name) => is_string($name) && trim($name) !== '') === []) {
            throw ByteTollException::invalidArgument('At least one hostname is required');
        }
        $saved = $this->data('POST', '/settings/hostnames', [], ['hostnames' => array_values($hostnames)]);
        return array_column($saved['hostnames'], 'hostname');
    }

    /** The caller's routing rules with the learner's verdict, evidence and savings. */
    public function routingRules(): array
    {
        return $this->data('GET', '/settings/routing/rules');
    }

    /** Routes a domain over datacenter (true) or mobile (false); the learner keeps the choice. */
    public function setRoutingRule(int $ruleId, bool $enabled): array
    {
        if ($ruleId < 1) {
            throw ByteTollException::invalidArgument('ruleId must be a whole number of at least 1');
        }
        return $this->data('PATCH', "/settings/routing/rules/{$ruleId}", [], ['enabled' => $enabled]);
    }

    /** Auto top-up by card: its settings and the saved card. */
    public function autoTopup(): AutoTopup
    {
        return new AutoTopup($this->http);
    }

    /** Your sub-users (extra proxy credentials with their own limits), oldest first. */
    public function listSubusers(): array
    {
        return $this->data('GET', '/subusers');
    }

    public function getSubuser(string $subuserId): array
    {
        return $this->data('GET', '/subusers/' . self::id('subuserId', $subuserId));
    }

    /**
     * A new sub-user. $limitGb: GB it may relay per $limitPeriod (day, week, month or total;
     * periods restart at 00:00 UTC, on Mondays, on the 1st), null for no limit. Its traffic is
     * billed from your balance at your prices.
     */
    public function createSubuser(string $label, float|int|null $limitGb = null, string $limitPeriod = 'total'): array
    {
        $body = ['label' => self::label($label), 'limit_gb' => self::limitGb($limitGb), 'limit_period' => self::period($limitPeriod)];
        return $this->data('POST', '/subusers', [], $body);
    }

    /**
     * Changes a sub-user: any of label, limit_gb (null: no limit), limit_period, enabled.
     * @param array{label?: string, limit_gb?: float|int|null, limit_period?: string, enabled?: bool} $changes
     */
    public function updateSubuser(string $subuserId, array $changes): array
    {
        $known = ['label', 'limit_gb', 'limit_period', 'enabled'];
        if ($changes === [] || array_diff(array_keys($changes), $known) !== []) {
            throw ByteTollException::invalidArgument('changes may hold ' . implode(', ', $known) . ', at least one');
        }
        if (array_key_exists('label', $changes)) $changes['label'] = self::label((string) $changes['label']);
        if (array_key_exists('limit_gb', $changes)) $changes['limit_gb'] = self::limitGb($changes['limit_gb']);
        if (array_key_exists('limit_period', $changes)) $changes['limit_period'] = self::period((string) $changes['limit_period']);
        if (array_key_exists('enabled', $changes) && !is_bool($changes['enabled'])) {
            throw ByteTollException::invalidArgument('enabled must be true or false');
        }
        return $this->data('PATCH', '/subusers/' . self::id('subuserId', $subuserId), [], $changes);
    }

    /** A new password, same username; the old one is refused within a second. */
    public function regenerateSubuserPassword(string $subuserId): array
    {
        return $this->data('POST', '/subusers/' . self::id('subuserId', $subuserId) . '/password');
    }

    /** Deletes a sub-user: its credentials stop working within a second; its usage stays. */
    public function deleteSubuser(string $subuserId): void
    {
        $this->http->send('DELETE', '/subusers/' . self::id('subuserId', $subuserId));
    }

    private static function label(string $label): string
    {
        $label = trim($label);
        if ($label === '' || mb_strlen($label) > 64) {
            throw ByteTollException::invalidArgument('label must be 1 to 64 characters');
        }
        return $label;
    }

    private static function limitGb(float|int|null $limitGb): float|int|null
    {
        if ($limitGb !== null && ($limitGb < 0.01 || $limitGb > 1000000)) {
            throw ByteTollException::invalidArgument('limit_gb must be at least 0.01 (or null for no limit)');
        }
        return $limitGb;
    }

    private static function period(string $period): string
    {
        if (!in_array($period, self::SUBUSER_LIMIT_PERIODS, true)) {
            throw ByteTollException::invalidArgument('limit_period must be one of ' . implode(', ', self::SUBUSER_LIMIT_PERIODS));
        }
        return $period;
    }

    /** @param array<string, string|int|null> $query */
    private function data(string $method, string $path, array $query = [], mixed $body = null): mixed
    {
        return $this->http->send($method, $path, $query, $body)['data'];
    }

    private static function id(string $name, string $value): string
    {
        if (trim($value) === '' || strlen($value) > 64) {
            throw ByteTollException::invalidArgument("{$name} must be a non-empty string of at most 64 characters");
        }
        return rawurlencode($value);
    }

    /** The options in the grammar's documented order (packages/contracts/src/proxy-username.ts). */
    private static function usernameSuffix(bool|string $sticky, bool $smart, ?string $country, ?int $sessionMinutes): string
    {
        if (is_string($sticky) && !preg_match(self::SESSION_ID, $sticky)) {
            throw ByteTollException::invalidArgument('sticky must be true, false or a session id of 1–32 letters or digits');
        }
        if ($country !== null && !preg_match('/^[A-Za-z]{2}$/', $country)) {
            throw ByteTollException::invalidArgument("Bad country code '{$country}'");
        }
        if ($sessionMinutes !== null && ($sessionMinutes < 1 || $sessionMinutes > 1440)) {
            throw ByteTollException::invalidArgument('sessionMinutes must be a whole number from 1 to 1440');
        }
        $session = $sticky === true ? self::randomSessionId() : ($sticky === false ? null : $sticky);
        return ($country === null ? '' : '-country-' . strtolower($country))
            . ($session === null ? '' : "-session-{$session}")
            . ($session === null || $sessionMinutes === null || $sessionMinutes === 10 ? '' : "-sesstime-{$sessionMinutes}")
            . ($smart ? '-routing-smart' : '');
    }

    private static function randomSessionId(): string
    {
        $alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
        $id = '';
        for ($i = 0; $i < 8; $i++) {
            $id .= $alphabet[random_int(0, strlen($alphabet) - 1)];
        }
        return $id;
    }
}
