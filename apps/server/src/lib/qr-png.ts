import { crc32, deflateSync } from "node:zlib";
import QRCode from "qrcode";

/** Light modules around the code (the standard asks for 4; the page shows it on white anyway). */
const QUIET_ZONE = 2;

function pngChunk(type: string, data: Buffer): Buffer {
  const typed = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * A QR code as a PNG data URL with one pixel per module in 1-bit grey: a few hundred bytes
 * where the qrcode package's scaled RGBA PNG took ~3 kB — and every order in the history carries
 * one. The page scales it up with `image-rendering: pixelated`, so it stays sharp.
 */
export function qrCodeFor(text: string): string {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: "M" });
  const size = modules.size + QUIET_ZONE * 2;
  const rowBytes = Math.ceil(size / 8);
  // Each scanline: filter type 0, then the pixels, 1 = light.
  const raw = Buffer.alloc((rowBytes + 1) * size);
  for (let y = 0; y < size; y++) {
    const row = y * (rowBytes + 1);
    for (let x = 0; x < size; x++) {
      const my = y - QUIET_ZONE;
      const mx = x - QUIET_ZONE;
      const inside = my >= 0 && mx >= 0 && my < modules.size && mx < modules.size;
      const at = row + 1 + (x >> 3);
      if (!(inside && modules.get(my, mx))) raw[at] = (raw[at] as number) | (0x80 >> (x & 7));
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  const png = Buffer.concat([
    PNG_SIGNATURE,
    pngChunk("IHDR", header),
    pngChunk("IDAT", deflateSync(raw, { level: 9 })),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString("base64")}`;
}
