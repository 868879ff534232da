import { type ConnectionTestData, connectionTestDataSchema } from "@bytetoll/contracts";
import { z } from "zod";

const text = z.string().catch("");

/** What the IPINFO_URL service may answer: ipinfo.io's flat shape (`org` = "AS15169 Google LLC",
 * `region`, `city`, `country`) or an already nested one (`asn.org_name`, `geo.city`…). */
const ipInfoBody = z.object({
  ip: text,
  org: text.optional(),
  country: text.optional(),
  city: text.optional(),
  region: text.optional(),
  asn: z.object({ org_name: text.optional(), name: text.optional() }).catch({}).optional(),
  geo: z.object({ city: text.optional(), region_name: text.optional() }).catch({}).optional(),
});

/** docs/product.md#data-shapes's test-connection data from an IP-info answer; null when it is not one. */
export function toConnectionTestData(body: unknown): ConnectionTestData | null {
  const parsed = ipInfoBody.safeParse(body);
  if (!parsed.success || parsed.data.ip === "") return null;
  const info = parsed.data;
  const orgName = info.asn?.org_name || info.asn?.name || (info.org ?? "").replace(/^AS\d+\s+/, "");
  return connectionTestDataSchema.parse({
    ip: info.ip,
    asn: { org_name: orgName },
    country: info.country ?? "",
    geo: { city: info.geo?.city || info.city || "", region_name: info.geo?.region_name || info.region || "" },
  });
}
