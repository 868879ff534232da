import { createHash } from "node:crypto";
import type { Network } from "@bytetoll/contracts";
import type { CreatedPayment, PaymentProvider, PaymentRequest } from "../../lib/payment-provider.ts";
import { qrCodeFor } from "../../lib/qr-png.ts";

const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

function base58(bytes: Uint8Array): string {
  let value = BigInt(`0x${Buffer.from(bytes).toString("hex")}`);
  let out = "";
  while (value > 0n) {
    out = BASE58[Number(value % 58n)] + out;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    out = `1${out}`;
  }
  return out;
}

/** A well-formed but fake address, the same for the same order and network every time (so a
 * retried request or a second instance shows the same address). */
export function sandboxPayAddress(orderId: string, network: Network): string {
  const digest = createHash("sha256").update(`bytetoll-sandbox:${network}:${orderId}`).digest();
  return network === "solana" ? base58(digest) : `0x${digest.subarray(0, 20).toString("hex")}`;
}

/** The default provider: nothing leaves the machine; POST /dev/orders/{id}/pay or the admin CLI
 * confirms a payment. Card payments go to the server-rendered sandbox card page. */
export function createSandboxProvider(appUrl: string): PaymentProvider {
  return {
    name: "sandbox",
    async createPayment(request: PaymentRequest): Promise<CreatedPayment> {
      if (!request.network) {
        return {
          providerPaymentId: null,
          payAddress: null,
          qrCode: null,
          priceAmountCents: null,
          providerSessionId: null,
          redirectUrl: `${appUrl}/dev/card-checkout/${request.orderId}`,
        };
      }
      const payAddress = sandboxPayAddress(request.orderId, request.network);
      return {
        providerPaymentId: `sandbox-${request.orderId}`,
        payAddress,
        qrCode: qrCodeFor(payAddress),
        // USDC is pegged 1:1 to USD in the sandbox.
        priceAmountCents: request.amountCents,
        providerSessionId: null,
        redirectUrl: null,
      };
    },
  };
}
