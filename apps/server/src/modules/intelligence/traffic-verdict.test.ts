import { describe, expect, it } from "vitest";
import { trafficSignal } from "./traffic-verdict.ts";

const THRESHOLDS = { minConnections: 5, failureRate: 0.5, margin: 0.3, minAccounts: 3, maxAccountShare: 0.5 };
const tally = (connections: number, failures: number) => ({ connections, failures });
/** `by`: how many accounts saw failures and the most one of them saw (default: spread over 3). */
const judge = (
  dc: [number, number],
  mobile: [number, number],
  rest: [number, number] = [0, 0],
  by: [number, number] = [3, Math.ceil(dc[1] / 3)],
) =>
  trafficSignal(
    {
      dc: tally(...dc),
      mobile: tally(...mobile),
      attribution: { accounts: by[0], topAccountFailures: by[1] },
    },
    tally(...rest),
    THRESHOLDS,
    10,
  );

describe("blocking a domain from gateway evidence", () => {
  it("blocks when datacenter connections fail well above mobile ones and the rest of the pool", () => {
    expect(judge([8, 6], [10, 0], [200, 4])).toBe(
      "gateway: 6 of 8 datacenter connections failed in 10 min (mobile 0 of 10, other datacenter traffic 4 of 200; 3 accounts, at most 2 failures from one)",
    );
    expect(judge([5, 5], [0, 0])).not.toBeNull();
  });

  it("waits for enough datacenter connections", () => {
    expect(judge([4, 4], [10, 0])).toBeNull();
  });

  it("leaves a site that fails for everyone alone", () => {
    expect(judge([10, 9], [10, 8])).toBeNull();
  });

  it("leaves every site alone while the datacenter pool itself is failing", () => {
    expect(judge([10, 10], [10, 0], [300, 280])).toBeNull();
  });

  it("never acts on the failures of one or two accounts, however many", () => {
    expect(judge([18, 18], [10, 0], [0, 0], [1, 18])).toBeNull();
    expect(judge([18, 18], [10, 0], [0, 0], [2, 9])).toBeNull();
  });

  it("never acts when one account has more than half of the failures", () => {
    expect(judge([20, 20], [10, 0], [0, 0], [3, 11])).toBeNull();
    expect(judge([20, 20], [10, 0], [0, 0], [3, 10])).not.toBeNull();
  });

  it("needs at least the failure share, however clean mobile is", () => {
    expect(judge([10, 4], [10, 0])).toBeNull();
  });
});
