// A ZIP archive (deflated entries, no zip64) of a directory, with Node's zlib alone: the build must
// not depend on a `zip` command being installed.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { crc32, deflateRawSync } from "node:zlib";

/** Every file below `dir`, as paths relative to `base` with forward slashes, sorted. */
function filesBelow(base, dir) {
  return readdirSync(path.join(base, dir), { withFileTypes: true })
    .flatMap((entry) => {
      const relative = path.posix.join(dir, entry.name);
      return entry.isDirectory() ? filesBelow(base, relative) : [relative];
    })
    .sort();
}

/** DOS date and time fields of a modification time. */
function dosTime(date) {
  const time = (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1);
  const day = ((date.getFullYear() - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate();
  return { time, day };
}

/** Writes little-endian 16-bit (`width` 2) or 32-bit (4) `values` one after another from `at`. */
function writeFields(buffer, at, width, values) {
  for (const [index, value] of values.entries()) {
    if (width === 2) buffer.writeUInt16LE(value, at + index * 2);
    else buffer.writeUInt32LE(value >>> 0, at + index * 4);
  }
}

/** The bytes of a ZIP holding `dir` (a folder of `base`) and everything below it. */
export function zipDirectory(base, dir) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const name of filesBelow(base, dir)) {
    const file = path.join(base, name);
    const data = readFileSync(file);
    const packed = deflateRawSync(data);
    const { time, day } = dosTime(statSync(file).mtime);
    const nameBytes = Buffer.from(name, "utf8");
    // Version 20, UTF-8 names (flag bit 11), deflate (8).
    const fields = [20, 0x0800, 8, time, day];
    const sizes = [crc32(data), packed.length, data.length];

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    writeFields(local, 4, 2, fields);
    writeFields(local, 14, 4, sizes);
    local.writeUInt16LE(nameBytes.length, 26);
    locals.push(local, nameBytes, packed);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x0314, 4); // made by: Unix, version 20
    writeFields(central, 6, 2, fields);
    writeFields(central, 16, 4, sizes);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE((0o100644 << 16) >>> 0, 38); // a regular file, rw-r--r--
    central.writeUInt32LE(offset, 42);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
