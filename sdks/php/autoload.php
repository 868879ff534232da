<?php

// For projects without Composer: require this file, then use ByteToll\Client.
spl_autoload_register(static function (string $class): void {
    $prefix = 'ByteToll\\';
    if (strncmp($class, $prefix, strlen($prefix)) !== 0) {
        return;
    }
    $file = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
