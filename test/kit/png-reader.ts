import { inflateSync } from 'node:zlib';

/** A decoded 8-bit image: RGBA bytes row by row. */
export interface RgbaImage {
  readonly width: number;
  readonly height: number;
  /** width x height x 4 bytes: red, green, blue, alpha. */
  readonly pixels: Uint8Array;
}

function paeth(a: number, b: number, c: number): number {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/**
 * Decodes a PNG as Chromium writes screenshots: 8-bit RGB or RGBA, not interlaced.
 * @param png - the file's bytes
 * @returns the image as RGBA
 * @throws Error for other PNG flavours or a damaged file
 */
export function readPng(png: Uint8Array): RgbaImage {
  const buf = Buffer.from(png);
  if (buf.readUInt32BE(0) !== 0x89504e47) throw new Error('readPng: not a PNG file (bad signature)');
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (offset < buf.length) {
    const length = buf.readUInt32BE(offset);
    const type = buf.toString('latin1', offset + 4, offset + 8);
    const data = buf.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      const bitDepth = data[8];
      const colorType = data[9];
      const interlace = data[12];
      if (bitDepth !== 8 || (colorType !== 2 && colorType !== 6) || interlace !== 0) {
        throw new Error(
          `readPng: only 8-bit RGB/RGBA non-interlaced PNGs (got depth ${bitDepth}, type ${colorType})`,
        );
      }
      channels = colorType === 6 ? 4 : 3;
    } else if (type === 'IDAT') {
      idat.push(data);
    } else if (type === 'IEND') {
      break;
    }
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const rows = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const src = y * (stride + 1) + 1;
    const dst = y * stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? (rows[dst + x - channels] as number) : 0;
      const b = y > 0 ? (rows[dst - stride + x] as number) : 0;
      const c = x >= channels && y > 0 ? (rows[dst - stride + x - channels] as number) : 0;
      const value = raw[src + x] as number;
      const predicted =
        filter === 0 ? 0 : filter === 1 ? a : filter === 2 ? b : filter === 3 ? (a + b) >> 1 : paeth(a, b, c);
      rows[dst + x] = (value + predicted) & 0xff;
    }
  }
  if (channels === 4) return { width, height, pixels: rows };
  const pixels = new Uint8Array(width * height * 4);
  for (let i = 0, j = 0; i < rows.length; i += 3, j += 4) {
    pixels[j] = rows[i] as number;
    pixels[j + 1] = rows[i + 1] as number;
    pixels[j + 2] = rows[i + 2] as number;
    pixels[j + 3] = 255;
  }
  return { width, height, pixels };
}
