import { formatMoney } from "../../lib/format.ts";

/** What the share menu says about the product: the operator's list price per GB (from /config),
 * or no figure while it is not known yet. */
export function shareMessage(pricePerGbUsd: number | undefined): { subject: string; text: string } {
  const subject =
    pricePerGbUsd === undefined ? "Mobile proxies" : `Mobile proxies from ${formatMoney(pricePerGbUsd)}/GB`;
  return { subject, text: `${subject} — catch this deal before it ends:` };
}

export type ShareMessage = ReturnType<typeof shareMessage>;

export interface ShareTarget {
  name: string;
  href: string;
}

/** Where the share menu's links go: each network's own share URL with the marketing page. */
export function shareTargets(url: string, { subject, text: message }: ShareMessage): ShareTarget[] {
  const u = encodeURIComponent(url);
  const text = encodeURIComponent(message);
  const both = encodeURIComponent(`${message} ${url}`);
  return [
    { name: "X", href: `https://x.com/intent/post?text=${text}&url=${u}` },
    { name: "WhatsApp", href: `https://wa.me/?text=${both}` },
    { name: "Facebook", href: `https://www.facebook.com/sharer/sharer.php?u=${u}` },
    { name: "Reddit", href: `https://www.reddit.com/submit?url=${u}&title=${text}` },
    { name: "LinkedIn", href: `https://www.linkedin.com/sharing/share-offsite/?url=${u}` },
    { name: "Telegram", href: `https://t.me/share/url?url=${u}&text=${text}` },
    {
      name: "E-mail",
      href: `mailto:?subject=${encodeURIComponent(subject)}&body=${both}`,
    },
  ];
}

/** The marketing page a deal is shared as: the marketing site with the deal's id. */
export function dealShareUrl(marketingUrl: string, dealId: string): string {
  const url = new URL(marketingUrl);
  url.searchParams.set("di", dealId);
  return url.toString();
}
