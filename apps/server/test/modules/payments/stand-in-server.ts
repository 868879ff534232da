import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

export interface StandIn {
  url: string;
  port: number;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

type Handler = (request: RecordedRequest) => { status: number; body: unknown };

/** A local HTTP server playing a payment provider's API: records each call, answers via `handle`. */
export async function startStandIn(handle: Handler): Promise<StandIn> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const recorded = {
        method: req.method ?? "GET",
        url: req.url ?? "/",
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(recorded);
      const { status, body } = handle(recorded);
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A payment as the NOWPayments stand-in keeps it; tests set its status and amounts. */
export interface FakeNowPayment {
  payment_id: number;
  order_id: string;
  payment_status: string;
  pay_address: string;
  pay_amount: number;
  pay_currency: string;
  price_amount: number;
  price_currency: string;
  actually_paid: number;
  payin_hash: string | null;
}

export interface NowPaymentsStandIn extends StandIn {
  /** Every payment created, by payment id. */
  payments: Map<string, FakeNowPayment>;
  /** The payment made for one of our orders. */
  paymentOf(orderId: string): FakeNowPayment | undefined;
}

/** NOWPayments' API as the provider uses it: create a payment, read it back, 503 for another API
 * key or while `isDown()`. Payment ids start at `firstId`. */
export async function startNowPaymentsStandIn(options: {
  apiKey: string;
  firstId: number;
  isDown?: () => boolean;
}): Promise<NowPaymentsStandIn> {
  const payments = new Map<string, FakeNowPayment>();
  const standIn = await startStandIn((request) => {
    if (options.isDown?.() || request.headers["x-api-key"] !== options.apiKey)
      return { status: 503, body: { message: "unavailable" } };
    if (request.method === "POST" && request.url === "/v1/payment") {
      const body = JSON.parse(request.body);
      const payment: FakeNowPayment = {
        payment_id: options.firstId + payments.size,
        order_id: body.order_id,
        payment_status: "waiting",
        pay_address: `addr-${body.pay_currency}-${payments.size}`,
        pay_amount: body.price_amount + 0.015,
        pay_currency: body.pay_currency,
        price_amount: body.price_amount,
        price_currency: body.price_currency,
        actually_paid: 0,
        payin_hash: null,
      };
      payments.set(String(payment.payment_id), payment);
      return { status: 201, body: payment };
    }
    const read = /^\/v1\/payment\/(\d+)$/.exec(request.url);
    const payment = read ? payments.get(read[1] ?? "") : undefined;
    if (request.method === "GET" && payment) return { status: 200, body: payment };
    return { status: 404, body: { message: "not found" } };
  });
  const paymentOf = (orderId: string) => [...payments.values()].find((p) => p.order_id === orderId);
  return { ...standIn, payments, paymentOf };
}
