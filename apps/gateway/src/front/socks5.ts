/**
 * SOCKS5 (RFC 1928) with username/password authentication (RFC 1929), as bytes: each parser
 * takes what has arrived so far and says whether it needs more, what it read (and how many
 * bytes that was), or why the bytes cannot be a valid message. Nothing here touches a socket.
 */

export const SOCKS_VERSION = 0x05;
/** RFC 1929's sub-negotiation has its own version byte. */
const USERPASS_VERSION = 0x01;

export const SocksMethod = {
  noAuthentication: 0x00,
  usernamePassword: 0x02,
  noneAcceptable: 0xff,
} as const;

export const SocksCommand = { connect: 0x01, bind: 0x02, udpAssociate: 0x03 } as const;

/** The REP field of a reply (RFC 1928 §6). */
export const SocksReply = {
  succeeded: 0x00,
  generalFailure: 0x01,
  notAllowed: 0x02,
  networkUnreachable: 0x03,
  hostUnreachable: 0x04,
  connectionRefused: 0x05,
  ttlExpired: 0x06,
  commandNotSupported: 0x07,
  addressTypeNotSupported: 0x08,
} as const;
export type SocksReplyCode = (typeof SocksReply)[keyof typeof SocksReply];

const ATYP_IPV4 = 0x01;
const ATYP_DOMAIN = 0x03;
const ATYP_IPV6 = 0x04;

export type Parsed<T> =
  | { kind: "need" }
  | { kind: "done"; value: T; consumed: number }
  | { kind: "invalid"; message: string; reply?: SocksReplyCode };

const need = { kind: "need" } as const;
const invalid = (message: string, reply?: SocksReplyCode): Parsed<never> => ({
  kind: "invalid",
  message,
  reply,
});

/** VER NMETHODS METHODS… */
export function parseGreeting(bytes: Buffer): Parsed<{ methods: number[] }> {
  if (bytes.length < 1) return need;
  if (bytes[0] !== SOCKS_VERSION) return invalid("not a SOCKS5 greeting");
  if (bytes.length < 2) return need;
  const count = bytes[1] as number;
  if (count === 0) return invalid("the SOCKS5 greeting offers no authentication method");
  if (bytes.length < 2 + count) return need;
  return { kind: "done", value: { methods: [...bytes.subarray(2, 2 + count)] }, consumed: 2 + count };
}

/** VER ULEN UNAME PLEN PASSWD (RFC 1929). */
export function parseUserPass(bytes: Buffer): Parsed<{ username: string; password: string }> {
  if (bytes.length < 1) return need;
  if (bytes[0] !== USERPASS_VERSION) return invalid("not a username/password sub-negotiation");
  if (bytes.length < 2) return need;
  const userLength = bytes[1] as number;
  if (bytes.length < 3 + userLength) return need;
  const passwordLength = bytes[2 + userLength] as number;
  const end = 3 + userLength + passwordLength;
  if (bytes.length < end) return need;
  return {
    kind: "done",
    value: {
      username: bytes.subarray(2, 2 + userLength).toString("utf8"),
      password: bytes.subarray(3 + userLength, end).toString("utf8"),
    },
    consumed: end,
  };
}

export interface SocksRequest {
  command: number;
  /** A domain name as sent, or an IPv4/IPv6 literal (IPv6 without brackets). */
  host: string;
  port: number;
}

function ipv6Text(bytes: Buffer): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(bytes.readUInt16BE(i).toString(16));
  return groups.join(":");
}

/** VER CMD RSV ATYP DST.ADDR DST.PORT */
export function parseRequest(bytes: Buffer): Parsed<SocksRequest> {
  if (bytes.length < 4) return need;
  if (bytes[0] !== SOCKS_VERSION) return invalid("not a SOCKS5 request");
  const command = bytes[1] as number;
  const type = bytes[3] as number;
  let host: string;
  let at: number;
  if (type === ATYP_IPV4) {
    if (bytes.length < 10) return need;
    host = [...bytes.subarray(4, 8)].join(".");
    at = 8;
  } else if (type === ATYP_IPV6) {
    if (bytes.length < 22) return need;
    host = ipv6Text(bytes.subarray(4, 20));
    at = 20;
  } else if (type === ATYP_DOMAIN) {
    if (bytes.length < 5) return need;
    const length = bytes[4] as number;
    if (length === 0) return invalid("the SOCKS5 request names an empty host", SocksReply.hostUnreachable);
    if (bytes.length < 5 + length + 2) return need;
    host = bytes.subarray(5, 5 + length).toString("latin1");
    at = 5 + length;
  } else {
    return invalid("unknown SOCKS5 address type", SocksReply.addressTypeNotSupported);
  }
  const port = bytes.readUInt16BE(at);
  if (port === 0) return invalid("the SOCKS5 request names port 0", SocksReply.hostUnreachable);
  return { kind: "done", value: { command, host, port }, consumed: at + 2 };
}

/** VER METHOD */
export function methodChoice(method: number): Buffer {
  return Buffer.from([SOCKS_VERSION, method]);
}

/** VER STATUS (RFC 1929): 0 succeeds, anything else fails and the server closes. */
export function userPassStatus(ok: boolean): Buffer {
  return Buffer.from([USERPASS_VERSION, ok ? 0x00 : 0x01]);
}

/** A reply with BND.ADDR 0.0.0.0:0: clients of a CONNECT do not use it, and the gateway's own
 * outbound address is none of the client's business. */
export function reply(code: SocksReplyCode): Buffer {
  return Buffer.from([SOCKS_VERSION, code, 0x00, ATYP_IPV4, 0, 0, 0, 0, 0, 0]);
}
