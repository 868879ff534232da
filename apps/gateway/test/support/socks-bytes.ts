/** SOCKS5 messages a client sends (RFC 1928, RFC 1929), for tests that write them byte by byte. */

/** A greeting offering username/password only. */
export const greeting = Buffer.from([5, 1, 2]);

export const userPass = (username: string, password: string) =>
  Buffer.concat([
    Buffer.from([1, username.length]),
    Buffer.from(username),
    Buffer.from([password.length]),
    Buffer.from(password),
  ]);

/** A request for an IPv4 address (`command` 1: CONNECT). */
export const connectV4 = (ip: number[], port: number, command = 1) =>
  Buffer.from([5, command, 0, 1, ...ip, port >> 8, port & 0xff]);
