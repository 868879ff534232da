import net from "node:net";
import type { Gateway } from "../../src/gateway.ts";
import { basic, rawExchange, type SeededUser } from "./harness.ts";

/** The ways a client reaches a target through the gateway: plain HTTP in absolute form, CONNECT,
 * both over TLS on the HTTPS port (8443 in production), and SOCKS5. */
export const FRONT_ENDS = ["http", "connect", "https-connect", "socks5"] as const;
export type FrontEnd = (typeof FRONT_ENDS)[number];

/** What the client was told: `status` 200 when the gateway let it through (the SOCKS5 reply 00
 * counts as 200), the refusal's status, `X-ByteToll-Error` and message otherwise; for SOCKS5,
 * `socksReply` is the reply code. */
export interface Reached {
  status: number;
  error: string | undefined;
  message: string;
  socksReply?: number;
}

/** Asks `gateway` to reach host:port through one front-end as `user`. */
export async function reach(
  gateway: Gateway,
  frontEnd: FrontEnd,
  user: SeededUser,
  host: string,
  port: number,
): Promise<Reached> {
  if (frontEnd === "socks5") return socksConnect(gateway.socksPort as number, user, host, port);
  const authority = `${host}:${port}`;
  const auth = `Proxy-Authorization: ${basic(user.username, user.password)}\r\n`;
  const request =
    frontEnd === "http"
      ? `GET http://${authority}/ HTTP/1.1\r\nHost: ${authority}\r\n${auth}Connection: close\r\n\r\n`
      : `CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n${auth}\r\n`;
  const secure = frontEnd === "https-connect";
  const response = await rawExchange(secure ? gateway.httpsPort : gateway.httpPort, request, secure).catch(
    // A target that takes the connection but never answers HTTP (the test's mail listener):
    // the gateway let it through.
    (error: Error) => ({
      status: error.message.includes("no response head") ? 502 : 0,
      headers: {},
      body: "",
    }),
  );
  const headers = response.headers as Record<string, string>;
  let message = "";
  try {
    message = (JSON.parse(response.body) as { message?: string }).message ?? "";
  } catch {
    // Not the gateway's refusal: the target's (or no) body.
  }
  return { status: response.status, error: headers["x-bytetoll-error"], message };
}

/** A SOCKS5 CONNECT by name (ATYP 3) with username/password; resolves with the reply code. */
function socksConnect(port: number, user: SeededUser, host: string, targetPort: number): Promise<Reached> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let data = Buffer.alloc(0);
    let step = 0;
    const name = Buffer.from(host);
    const username = Buffer.from(user.username);
    const password = Buffer.from(user.password);
    socket.on("connect", () => socket.write(Buffer.from([5, 1, 2])));
    socket.on("data", (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      if (step === 0 && data.length >= 2) {
        data = data.subarray(2);
        step = 1;
        socket.write(
          Buffer.concat([
            Buffer.from([1, username.length]),
            username,
            Buffer.from([password.length]),
            password,
          ]),
        );
      }
      if (step === 1 && data.length >= 2) {
        const ok = data[1] === 0;
        data = data.subarray(2);
        step = 2;
        if (!ok) {
          socket.destroy();
          resolve({ status: 407, error: "auth", message: "", socksReply: 0xff });
          return;
        }
        socket.write(
          Buffer.concat([
            Buffer.from([5, 1, 0, 3, name.length]),
            name,
            Buffer.from([targetPort >> 8, targetPort & 0xff]),
          ]),
        );
      }
      if (step === 2 && data.length >= 2) {
        const reply = data[1] as number;
        step = 3;
        socket.destroy();
        resolve({ status: reply === 0 ? 200 : 403, error: undefined, message: "", socksReply: reply });
      }
    });
    socket.on("error", reject);
    socket.on("close", () => step < 3 && reject(new Error(`SOCKS5 closed at step ${step}`)));
  });
}
