<?php

declare(strict_types=1);

namespace ByteToll;

use RuntimeException;

/**
 * Every failure of the client. getStatus() is the HTTP status of the server's answer (0 when none
 * came, or when the arguments were refused before anything was sent); the message is the server's
 * own, or says what was wrong with the arguments. getKind(): "response", "network" or "invalid_argument".
 */
final class ByteTollException extends RuntimeException
{
    public function __construct(string $message, private readonly int $status, private readonly string $kind)
    {
        parent::__construct($message, $status);
    }

    public static function invalidArgument(string $message): self
    {
        return new self($message, 0, 'invalid_argument');
    }

    public function getStatus(): int
    {
        return $this->status;
    }

    public function getKind(): string
    {
        return $this->kind;
    }
}
