// Draws the 128x128 extension icon (a stack of three cards) and writes it as a PNG.
// Usage: node scripts/make-icon.mjs media/icon.png. Only node: built-ins.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const size = 128;
const pixels = Buffer.alloc(size * size * 4);

function fill(x0, y0, x1, y1, [r, g, b, a], radius = 0) {
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      const dx = Math.max(x0 + radius - x - 0.5, 0, x + 0.5 - (x1 - radius));
      const dy = Math.max(y0 + radius - y - 0.5, 0, y + 0.5 - (y1 - radius));
      if (radius > 0 && dx * dx + dy * dy > radius * radius) {continue;}
      const i = (y * size + x) * 4;
      pixels[i] = r;
      pixels[i + 1] = g;
      pixels[i + 2] = b;
      pixels[i + 3] = a;
    }
  }
}

fill(0, 0, size, size, [32, 44, 70, 255], 22);
fill(30, 22, 110, 78, [86, 156, 214, 255], 8);
fill(24, 38, 104, 94, [78, 201, 176, 255], 8);
fill(18, 54, 98, 110, [245, 245, 245, 255], 8);
for (const [y, w] of [[68, 56], [80, 44], [92, 50]]) {fill(30, y, 30 + w, y + 5, [32, 44, 70, 255], 2);}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) {c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;}
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) {c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);}
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

const header = Buffer.alloc(13);
header.writeUInt32BE(size, 0);
header.writeUInt32BE(size, 4);
header[8] = 8; // bit depth
header[9] = 6; // RGBA
const rows = Buffer.alloc(size * (size * 4 + 1));
for (let y = 0; y < size; y++) {pixels.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);}
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', header),
  chunk('IDAT', deflateSync(rows)),
  chunk('IEND', Buffer.alloc(0)),
]);
writeFileSync(process.argv[2] ?? 'media/icon.png', png);
