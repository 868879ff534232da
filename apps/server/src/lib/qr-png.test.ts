import { inflateSync } from "node:zlib";
import QRCode from "qrcode";
import { describe, expect, it } from "vitest";
import { qrCodeFor } from "./qr-png.ts";

/** Reads back what qrCodeFor wrote: the chunks, their CRCs, and the pixels. */
function decode(dataUrl: string) {
  const png = Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ""), "base64");
  expect(png.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
  const chunks = new Map<string, Buffer>();
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    const type = png.subarray(at + 4, at + 8).toString("latin1");
    chunks.set(type, png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  const header = chunks.get("IHDR") as Buffer;
  const width = header.readUInt32BE(0);
  const raw = inflateSync(chunks.get("IDAT") as Buffer);
  const rowBytes = Math.ceil(width / 8);
  const dark = (x: number, y: number) =>
    ((raw[y * (rowBytes + 1) + 1 + (x >> 3)] as number) & (0x80 >> (x & 7))) === 0;
  return {
    width,
    height: header.readUInt32BE(4),
    depth: header[8],
    colour: header[9],
    dark,
    types: [...chunks.keys()],
  };
}

describe("qrCodeFor", () => {
  it("draws every module of the code, one pixel each, inside a light quiet zone", () => {
    const text = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin";
    const image = decode(qrCodeFor(text));
    const { modules } = QRCode.create(text, { errorCorrectionLevel: "M" });
    expect(image.types).toEqual(["IHDR", "IDAT", "IEND"]);
    expect([image.depth, image.colour]).toEqual([1, 0]);
    expect(image.width).toBe(modules.size + 4);
    expect(image.height).toBe(image.width);
    for (let y = 0; y < image.height; y++) {
      for (let x = 0; x < image.width; x++) {
        const inside = x >= 2 && y >= 2 && x < modules.size + 2 && y < modules.size + 2;
        expect(image.dark(x, y), `pixel ${x},${y}`).toBe(inside && Boolean(modules.get(y - 2, x - 2)));
      }
    }
  });

  it("is a few hundred bytes for an EVM address", () => {
    const url = qrCodeFor("0xdef00f85fb0eb59bff8bd0139f1fe7d2fc753eee");
    expect(url.length).toBeLessThan(600);
  });
});
