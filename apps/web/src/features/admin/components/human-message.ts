/** The console's forms name their fields in words; the API's messages name them as the JSON does
 * ("deal_title is required", "gb must be between -1000000 and 1000000"). This puts the field's
 * label and readable numbers in their place; a message already in words passes through. */
const FIELD_LABELS: Record<string, string> = {
  deal_title: "Title",
  deal_description: "Description",
  deal_price: "Price",
  deal_target_gb: "Target (GB)",
  deal_start_time: "Start",
  deal_end_time: "End",
  deal_type: "Type",
  tx_hash: "Transaction hash",
  gb: "GB",
};

// JSON names with an underscore anywhere; a short one ("gb") only where it opens the message,
// so words in a message already written for people ("Write a note") stay as they are.
const FIELD = new RegExp(
  `\\b(${Object.keys(FIELD_LABELS)
    .filter((name) => name.includes("_"))
    .join("|")})\\b|^gb\\b`,
  "g",
);

export function humanMessage(message: string): string {
  const required = /^(\w+) is required$/.exec(message);
  if (required?.[1] && FIELD_LABELS[required[1]])
    return `Enter the ${FIELD_LABELS[required[1]]!.toLowerCase()}.`;
  const text = message
    .replace(FIELD, (name) => FIELD_LABELS[name] ?? name)
    .replace(/-?\d{4,}/g, (digits) => Number(digits).toLocaleString("en-US"))
    .replace(/ must be an ISO 8601 date-time/, " must be a date and time");
  const sentence = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
}
