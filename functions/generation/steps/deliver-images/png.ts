// The license's XMP written into an output that is a PNG already, without decoding and encoding
// its pixels again (docs/generation.md#delivery): its chunks are read, checked (each CRC, and the
// image data inflated to exactly the size its header says) and written back with ours.
import { crc32, inflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The chunks a delivered file keeps: the image and how to show it. Every other one goes (text,
 * EXIF, times, an earlier XMP or C2PA manifest, private chunks), as a re-encoding would drop them:
 * the file carries our provenance and nothing the model's host wrote.
 */
const KEPT = new Set(['IHDR', 'PLTE', 'IDAT', 'IEND', 'tRNS', 'gAMA', 'cHRM', 'sRGB', 'iCCP', 'sBIT', 'pHYs']);

/** Samples per pixel by PNG colour type (grey, RGB, palette, grey + alpha, RGBA). */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** Largest image this path takes (width times height); anything bigger is left to the re-encoding, which refuses it. */
const MAX_PIXELS = 64 * 1024 * 1024;

interface Chunk {
  type: string;
  data: Buffer;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(data, crc32(head.subarray(4))), 0);
  return Buffer.concat([head, data, crc]);
}

/** The file's chunks, each CRC checked; undefined when it is not a whole, well-formed PNG. */
function chunksOf(file: Buffer): Chunk[] | undefined {
  if (file.length < SIGNATURE.length || !file.subarray(0, SIGNATURE.length).equals(SIGNATURE)) return undefined;
  const chunks: Chunk[] = [];
  for (let at = SIGNATURE.length; ; ) {
    if (at + 12 > file.length) return undefined;
    const length = file.readUInt32BE(at);
    const end = at + 12 + length;
    if (end > file.length) return undefined;
    const typeAndData = file.subarray(at + 4, at + 8 + length);
    if (crc32(typeAndData) !== file.readUInt32BE(at + 8 + length)) return undefined;
    const type = typeAndData.subarray(0, 4).toString('latin1');
    chunks.push({ type, data: file.subarray(at + 8, at + 8 + length) });
    at = end;
    if (type === 'IEND') return chunks;
  }
}

/**
 * Whether the image data is all there: IHDR first, a non-interlaced image of a known colour type
 * and depth, and its IDAT stream inflating to exactly one filter byte and one row of samples per row.
 */
function wholeImage(chunks: Chunk[]): boolean {
  const ihdr = chunks[0];
  if (ihdr?.type !== 'IHDR' || ihdr.data.length !== 13) return false;
  const width = ihdr.data.readUInt32BE(0);
  const height = ihdr.data.readUInt32BE(4);
  const [depth, colour, compression, filter, interlace] = ihdr.data.subarray(8);
  const channels = CHANNELS[colour];
  if (!channels || ![1, 2, 4, 8, 16].includes(depth) || compression !== 0 || filter !== 0 || interlace !== 0) return false;
  if (width === 0 || height === 0 || width * height > MAX_PIXELS) return false;
  const rowBytes = Math.ceil((width * channels * depth) / 8);
  const expected = height * (1 + rowBytes);
  const idat = Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.data));
  try {
    // maxOutputLength: a stream that inflates past the expected size is refused before it is.
    return inflateSync(idat, { maxOutputLength: expected + 1 }).length === expected;
  } catch {
    return false;
  }
}

/**
 * The PNG with `xmp` in an uncompressed `iTXt` chunk (keyword `XML:com.adobe.xmp`, as XMP's
 * specification and sharp write it) right after its header, and only the chunks KEPT: the pixels
 * are the output's own, byte for byte. Undefined when the file is not a whole PNG this path can
 * check (not a PNG, interlaced, damaged): the caller then decodes and encodes it instead.
 */
export function pngWithXmp(file: Buffer, xmp: string): Buffer | undefined {
  const chunks = chunksOf(file);
  if (!chunks || !wholeImage(chunks)) return undefined;
  // keyword, NUL, compression flag 0, method 0, empty language tag and translated keyword (each NUL-ended), the text.
  const itxt = Buffer.concat([Buffer.from('XML:com.adobe.xmp\0\0\0\0\0', 'latin1'), Buffer.from(xmp, 'utf8')]);
  const kept = chunks.filter((c) => KEPT.has(c.type));
  return Buffer.concat([SIGNATURE, chunk('IHDR', kept[0].data), chunk('iTXt', itxt), ...kept.slice(1).map((c) => chunk(c.type, c.data))]);
}
