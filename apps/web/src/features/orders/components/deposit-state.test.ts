import { describe, expect, it } from "vitest";
import { ledgerNoteText } from "./deposit-state.ts";

describe("ledgerNoteText", () => {
  it("names a group buy's credit by the deal's title, never its id, and says 'Group buy' once", () => {
    expect(ledgerNoteText("Group buy k5Xq9: Mobile at $1/GB")).toBe("Group buy: Mobile at $1/GB");
    expect(ledgerNoteText("Group buy k5Xq9: Group buy: together to 100 GB")).toBe(
      "Group buy: together to 100 GB",
    );
    expect(ledgerNoteText("Free 1 GB")).toBe("Free 1 GB");
    expect(ledgerNoteText(null)).toBeNull();
  });
});
