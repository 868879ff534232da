import { describe, expect, it } from "vitest";
import {
  formatDataAmount,
  formatDateTime,
  formatGb,
  formatMoney,
  formatUsdc,
  shortenWallet,
} from "./format.ts";

describe("formatGb", () => {
  it("rounds to two decimals and drops trailing zeros", () => {
    expect(formatGb(1.234)).toBe("1.23 GB");
    expect(formatGb(1.235001)).toBe("1.24 GB");
    expect(formatGb(1.5)).toBe("1.5 GB");
    expect(formatGb(100)).toBe("100 GB");
    expect(formatGb(0)).toBe("0 GB");
    expect(formatGb(-0.001)).toBe("0 GB");
    expect(formatGb(12345.6)).toBe("12,345.6 GB");
  });
});

describe("formatDataAmount", () => {
  it("shows small figures in KB and MB, and GB from 1 GB on", () => {
    expect(formatDataAmount(0.000005)).toBe("5 KB");
    expect(formatDataAmount(0.00000004)).toBe("40 B");
    expect(formatDataAmount(0.0000123)).toBe("12.3 KB");
    expect(formatDataAmount(0.0004)).toBe("400 KB");
    expect(formatDataAmount(0.00099999)).toBe("1 MB");
    expect(formatDataAmount(0.0012)).toBe("1.2 MB");
    expect(formatDataAmount(0.12)).toBe("120 MB");
    expect(formatDataAmount(0.99999)).toBe("1 GB");
    expect(formatDataAmount(3.75)).toBe("3.75 GB");
    expect(formatDataAmount(0)).toBe("0 GB");
  });
});

describe("formatMoney", () => {
  it("shows whole dollars without decimals", () => {
    expect(formatMoney(3)).toBe("$3");
    expect(formatMoney(300)).toBe("$300");
    expect(formatMoney(5000)).toBe("$5,000");
  });
  it("shows two decimals for fractional amounts", () => {
    expect(formatMoney(0.3)).toBe("$0.30");
    expect(formatMoney(1234.5)).toBe("$1,234.50");
    expect(formatMoney(2.999)).toBe("$3");
  });
});

describe("formatUsdc", () => {
  it("always shows two decimals", () => {
    expect(formatUsdc(12)).toBe("12.00");
    expect(formatUsdc(0.305)).toBe("0.31");
  });
});

describe("formatDateTime", () => {
  it("formats as Mon D YYYY HH:MM in local time", () => {
    expect(formatDateTime(new Date(2026, 0, 5, 9, 7))).toBe("Jan 5 2026 09:07");
    expect(formatDateTime(new Date(2025, 11, 31, 23, 59))).toBe("Dec 31 2025 23:59");
  });
  it("accepts ISO strings and epoch milliseconds", () => {
    const date = new Date(2026, 10, 21, 14, 30);
    expect(formatDateTime(date.toISOString())).toBe("Nov 21 2026 14:30");
    expect(formatDateTime(date.getTime())).toBe("Nov 21 2026 14:30");
  });
  it("returns an empty string for an unreadable date", () => {
    expect(formatDateTime("not a date")).toBe("");
  });
});

describe("shortenWallet", () => {
  it("keeps the first 6 and last 4 characters of addresses of 8 or more", () => {
    expect(shortenWallet("0x1234567890abcdef")).toBe("0x1234…cdef");
    expect(shortenWallet("abcdefgh")).toBe("abcdef…efgh");
  });
  it("leaves shorter addresses alone", () => {
    expect(shortenWallet("abcdefg")).toBe("abcdefg");
  });
});
