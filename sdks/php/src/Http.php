<?php

declare(strict_types=1);

namespace ByteToll;

/** One API call with the token: the answer's envelope, or a ByteTollException. */
final class Http
{
    /** As the dashboard: 3 retries of a read, delays doubling from 1 s and capped at 30 s. */
    public const MAX_RETRY_DELAY_MS = 30000;

    public function __construct(
        private readonly string $baseUrl,
        private readonly string $apiToken,
        private readonly int $retries,
        private readonly int $retryBaseMs,
    ) {
    }

    /**
     * @param array<string, string|int|null> $query
     * @return array<string, mixed>
     */
    public function send(string $method, string $path, array $query = [], mixed $body = null): array
    {
        for ($failures = 0; ; $failures++) {
            try {
                return $this->attempt($method, $path, $query, $body);
            } catch (ByteTollException $error) {
                $retryable = $method === 'GET' && ($error->getKind() === 'network' || $error->getStatus() >= 500);
                if ($failures >= $this->retries || !$retryable) {
                    throw $error;
                }
                usleep(min($this->retryBaseMs * 2 ** $failures, self::MAX_RETRY_DELAY_MS) * 1000);
            }
        }
    }

    /**
     * @param array<string, string|int|null> $query
     * @return array<string, mixed>
     */
    private function attempt(string $method, string $path, array $query, mixed $body): array
    {
        $query = array_filter($query, static fn ($value) => $value !== null);
        $url = rtrim($this->baseUrl, '/') . $path . ($query ? '?' . http_build_query($query) : '');
        $headers = ['Accept: application/json', 'Authorization: Bearer ' . $this->apiToken];
        $curl = curl_init($url);
        $options = [
            CURLOPT_CUSTOMREQUEST => $method,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_CONNECTTIMEOUT => 10,
            CURLOPT_TIMEOUT => 60,
        ];
        if ($body !== null) {
            $headers[] = 'Content-Type: application/json';
            $options[CURLOPT_POSTFIELDS] = json_encode($body, JSON_THROW_ON_ERROR);
        }
        $options[CURLOPT_HTTPHEADER] = $headers;
        curl_setopt_array($curl, $options);
        $text = curl_exec($curl);
        if ($text === false) {
            $reason = curl_error($curl);
            curl_close($curl);
            throw new ByteTollException("Cannot reach {$this->baseUrl}: {$reason}", 0, 'network');
        }
        $status = (int) curl_getinfo($curl, CURLINFO_RESPONSE_CODE);
        curl_close($curl);
        $answer = json_decode((string) $text, true);
        if ($status < 400 && is_array($answer) && ($answer['success'] ?? false) === true) {
            return $answer;
        }
        $message = is_array($answer) && is_string($answer['message'] ?? null) ? $answer['message'] : "HTTP {$status}";
        throw new ByteTollException($message, $status, 'response');
    }
}
