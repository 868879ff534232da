<?php

declare(strict_types=1);

require __DIR__ . '/../autoload.php';

/**
 * One running install for the whole run: tests/start-install.ts (the repository's API, gateway and a
 * web origin on a fresh database) prints where it listens; closing its stdin stops it.
 */
final class RunningInstall
{
    /** @var array{url: string, api_token: string, admin_token: string, origin_url: string} */
    public static array $info;
    /** @var resource */
    private static $process;
    /** @var array<int, resource> */
    private static array $pipes = [];

    public static function start(): void
    {
        $root = dirname(__DIR__, 3);
        $command = [$root . '/node_modules/.bin/tsx', __DIR__ . '/start-install.ts'];
        self::$process = proc_open($command, [0 => ['pipe', 'r'], 1 => ['pipe', 'w'], 2 => STDERR], self::$pipes, $root);
        $line = fgets(self::$pipes[1]);
        if ($line === false) {
            throw new RuntimeException('the test install did not start');
        }
        self::$info = json_decode($line, true, 512, JSON_THROW_ON_ERROR);
        register_shutdown_function([self::class, 'stop']);
    }

    public static function stop(): void
    {
        fclose(self::$pipes[0]);
        fclose(self::$pipes[1]);
        proc_close(self::$process);
    }
}

RunningInstall::start();
