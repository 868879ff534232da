import { describe, expect, it } from "vitest";
import {
  axisTicks,
  DONUT_CHART_HEIGHT,
  domainChartHeight,
  donutSliceStroke,
  formatAxisTick,
  formatMetric,
  valueAxisProps,
} from "./usage-chart-data.ts";

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
    const axis = valueAxisProps(
      [
        { label: "a", mobile: 0.05, dc: 0.07 },
        { label: "b", mobile: 0.01, dc: 0 },
      ],
      "gb",
    );
    expect(axis.ticks).toEqual([0, 0.05, 0.1, 0.15]);
    expect(axis.domain).toEqual([0, 0.15]);
    expect(axis.interval).toBe(0);
  });
});

describe("usage figures", () => {
  it("shows MB below 1 GB in tooltips, tables and the donut total", () => {
    expect(formatMetric(0.12, "gb")).toBe("120 MB");
    expect(formatMetric(0.1 + 0.2, "gb")).toBe("300 MB");
    expect(formatMetric(0.0004, "gb")).toBe("0.4 MB");
    expect(formatMetric(3.75, "gb")).toBe("3.75 GB");
    expect(formatMetric(0, "gb")).toBe("0 GB");
    expect(formatMetric(1200, "requests")).toBe("1,200");
  });
});

describe("usage card shapes", () => {
  it("keeps the domain chart at least as tall as the donut beside it", () => {
    expect(domainChartHeight(1)).toBe(DONUT_CHART_HEIGHT);
    expect(domainChartHeight(6)).toBeGreaterThan(DONUT_CHART_HEIGHT);
  });

  it("strokes the donut's slices white only when there are two to separate", () => {
    expect(donutSliceStroke({ label: "All traffic", mobile: 1.5, dc: 2.25 })).toBe("#ffffff");
    expect(donutSliceStroke({ label: "All traffic", mobile: 1.5, dc: 0 })).toBe("none");
    expect(donutSliceStroke({ label: "All traffic", mobile: 0, dc: 2 })).toBe("none");
  });
});
