import { describe, expect, it } from "vitest";
import {
  axisTicks,
  type ChartDatum,
  DONUT_CHART_HEIGHT,
  domainChartHeight,
  donutSliceStroke,
  formatAxisTick,
  formatMetric,
  toDatum,
  totalOf,
  valueAxisProps,
} from "./usage-chart-data.ts";

const datum = (label: string, mobile: number, dc: number): ChartDatum => ({ label, mobile, dc });

const labels = (max: number) => axisTicks(max, "gb").map((tick) => formatAxisTick(tick, "gb"));

describe("usage chart axes", () => {
  it("labels a small GB axis with distinct MB ticks instead of repeated GB ones", () => {
    expect(labels(0.12)).toEqual(["0", "50 MB", "100 MB", "150 MB"]);
    expect(labels(0.004)).toEqual(["0", "1 MB", "2 MB", "3 MB", "4 MB"]);
  });

  it("switches the ticks to GB from 1 GB on, every label distinct", () => {
    expect(labels(3.75)).toEqual(["0", "1 GB", "2 GB", "3 GB", "4 GB"]);
    expect(labels(1.2)).toEqual(["0", "500 MB", "1 GB", "1.5 GB"]);
    for (const max of [0.0003, 0.07, 0.3, 0.9, 2.5, 17, 640]) {
      const shown = labels(max);
      expect(new Set(shown).size).toBe(shown.length);
      expect(axisTicks(max, "gb").at(-1)).toBeGreaterThanOrEqual(max);
    }
  });

  it("steps requests by whole numbers", () => {
    expect(axisTicks(3, "requests")).toEqual([0, 1, 2, 3]);
    expect(axisTicks(1275, "requests")).toEqual([0, 500, 1000, 1500]);
    expect(axisTicks(0, "requests")).toEqual([0, 1]);
  });

  it("gives the axis those ticks, all shown, reaching the largest stacked bar", () => {
    const axis = valueAxisProps([datum("a", 0.05, 0.07), datum("b", 0.01, 0)], "gb");
    expect(axis.ticks).toEqual([0, 0.05, 0.1, 0.15]);
    expect(axis.domain).toEqual([0, 0.15]);
    expect(axis.interval).toBe(0);
  });
});

describe("usage figures", () => {
  it("shows MB below 1 GB and KB below 1 MB in tooltips, tables and the donut total", () => {
    expect(formatMetric(0.12, "gb")).toBe("120 MB");
    expect(formatMetric(0.1 + 0.2, "gb")).toBe("300 MB");
    expect(formatMetric(0.0004, "gb")).toBe("400 KB");
    expect(formatMetric(3.75, "gb")).toBe("3.75 GB");
    expect(formatMetric(0, "gb")).toBe("0 GB");
    expect(formatMetric(1200, "requests")).toBe("1,200");
  });

  it("takes GB from the exact bytes, so figures the API's 2-decimal GB round to 0 show in KB and MB", () => {
    const row = { mobile_gb: 0, dc_gb: 0, mobile_requests: 3, dc_requests: 1 };
    const few = toDatum({ ...row, mobile_bytes: 4_321, dc_bytes: 2_500_000 }, "gb", "Mar 2");
    expect(formatMetric(few.mobile, "gb")).toBe("4.3 KB");
    expect(formatMetric(few.dc, "gb")).toBe("2.5 MB");
    expect(formatMetric(totalOf(few, "gb"), "gb")).toBe("2.5 MB");
    const quiet = toDatum({ ...row, mobile_bytes: 0, dc_bytes: 0 }, "gb", "Mar 3");
    expect(formatMetric(quiet.dc, "gb")).toBe("0 GB");
    expect(toDatum({ ...row, mobile_bytes: 0, dc_bytes: 0 }, "requests", "Mar 3")).toEqual({
      label: "Mar 3",
      mobile: 3,
      dc: 1,
    });
  });

  it("labels an axis under 1 MB in KB", () => {
    expect(labels(0.000004)).toEqual(["0", "1 KB", "2 KB", "3 KB", "4 KB"]);
  });
});

describe("usage card shapes", () => {
  it("keeps the domain chart at least as tall as the donut beside it", () => {
    expect(domainChartHeight(1)).toBe(DONUT_CHART_HEIGHT);
    expect(domainChartHeight(6)).toBeGreaterThan(DONUT_CHART_HEIGHT);
  });

  it("strokes the donut's slices white only when there are two to separate", () => {
    expect(donutSliceStroke(datum("All traffic", 1.5, 2.25))).toBe("#ffffff");
    expect(donutSliceStroke(datum("All traffic", 1.5, 0))).toBe("none");
    expect(donutSliceStroke(datum("All traffic", 0, 2))).toBe("none");
  });
});
