import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import {
  EgressGuard,
  type GatewayConfig,
  gatewayOwnPorts,
  Refusal,
  type VettedTarget,
} from "@bytetoll/egress";
import { AppError } from "../../errors.ts";

/** How long a receiver has to answer before the attempt counts as failed. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** What is read of a receiver's answer: its status is all that matters. */
const MAX_ANSWER_BYTES = 64 * 1024;

export const badWebhookUrl = (message: string) => new AppError(400, message, "bad_webhook_url");

/** An absolute http(s) URL without credentials in it (they would be sent to the receiver and
 * shown in the dashboard). */
export function parseWebhookUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw badWebhookUrl("The webhook URL must be an absolute http:// or https:// URL.");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw badWebhookUrl("The webhook URL must start with http:// or https://.");
  if (url.username || url.password)
    throw badWebhookUrl("The webhook URL must not contain a user name or password.");
  if (!url.hostname) throw badWebhookUrl("The webhook URL needs a host.");
  return url;
}

const portOf = (url: URL) => Number(url.port || (url.protocol === "https:" ? 443 : 80));
const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, "");

/** A private address can be opened by the operator, one port at a time; the gateway's own ports
 * and bad ports cannot, so they get no advice. */
function howToAllow(refusal: Refusal, url: URL): string {
  if (refusal.code !== "destination_forbidden" || !refusal.message.startsWith("Destination ")) return "";
  if (refusal.message.endsWith("the gateway itself")) return "";
  const host = hostOf(url);
  const literal = /^[\d.]+$/.test(host)
    ? `${host}/32`
    : host.includes(":")
      ? `[${host}]/128`
      : "<address>/32";
  return ` An operator can allow it with EGRESS_ALLOW_TARGETS=${literal}:${portOf(url)} (CIDR:port, comma-separated) on the API instances.`;
}

export interface DeliveryAnswer {
  statusCode: number | null;
  error: string | null;
}

/**
 * Where webhooks may go: the gateway's egress guard with the gateway's rules (private, loopback
 * and this host's own ports refused unless EGRESS_ALLOW opens them). It is checked when a URL is
 * saved and again at every send, and the send dials the very address that was vetted, so a DNS
 * answer that changes in between (rebinding) cannot reach an internal service.
 */
export function createWebhookTarget(config: GatewayConfig) {
  const guard = new EgressGuard({
    allow: config.egressAllow,
    allowTargets: config.egressAllowTargets,
    resolveHost: config.resolveHost,
    ownPorts: () => gatewayOwnPorts(config),
  });

  async function vet(url: URL): Promise<VettedTarget> {
    try {
      return await guard.vet(hostOf(url), portOf(url));
    } catch (error) {
      if (error instanceof Refusal)
        throw badWebhookUrl(`The webhook URL is not allowed: ${error.message}.${howToAllow(error, url)}`);
      throw error;
    }
  }

  async function post(
    urlText: string,
    body: string,
    headers: Record<string, string>,
  ): Promise<DeliveryAnswer> {
    let vetted: VettedTarget;
    try {
      vetted = await vet(parseWebhookUrl(urlText));
    } catch (error) {
      return { statusCode: null, error: error instanceof Error ? error.message : String(error) };
    }
    return send(new URL(urlText), vetted, body, headers);
  }

  return { vet, post };
}

function send(
  url: URL,
  vetted: VettedTarget,
  body: string,
  headers: Record<string, string>,
): Promise<DeliveryAnswer> {
  const family = vetted.address.includes(":") ? 6 : 4;
  const pinned = ((_host, options, callback) => {
    if ((options as { all?: boolean }).all) callback(null, [{ address: vetted.address, family }]);
    else callback(null, vetted.address, family);
  }) as LookupFunction;
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    const request = client.request(url, {
      method: "POST",
      lookup: pinned,
      headers: { ...headers, "content-length": Buffer.byteLength(body).toString() },
    });
    const deadline = setTimeout(
      () => request.destroy(new Error("no answer within 10 s")),
      DELIVERY_TIMEOUT_MS,
    );
    const finish = (answer: DeliveryAnswer) => {
      clearTimeout(deadline);
      resolve(answer);
    };
    request.on("response", (response) => {
      let read = 0;
      response.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_ANSWER_BYTES) response.destroy();
      });
      response.on("close", () => finish({ statusCode: response.statusCode ?? null, error: null }));
    });
    request.on("error", (error) => finish({ statusCode: null, error: error.message }));
    request.end(body);
  });
}

export type WebhookTarget = ReturnType<typeof createWebhookTarget>;
