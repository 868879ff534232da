import { describe, expect, it } from "vitest";
import { humanMessage } from "./human-message.ts";

describe("the console's wording of API messages", () => {
  it.each([
    ["deal_title is required", "Enter the title."],
    ["gb must be between -1000000 and 1000000", "GB must be between -1,000,000 and 1,000,000."],
    ["deal_end_time must be after deal_start_time", "End must be after Start."],
    ["Write a note: why this change.", "Write a note: why this change."],
  ])("%j reads %j", (raw, shown) => {
    expect(humanMessage(raw)).toBe(shown);
  });
});
