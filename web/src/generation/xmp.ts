// Reading the license id an image carries in its XMP packet (docs/product.md#license-check), in
// the browser: a file that names no license of ours is never sent anywhere; one that does is sent
// to that license's check, which compares its pixels (decision 035). JPEG and WebP keep the
// packet as plain text; PNG keeps it in a text chunk that may be compressed (zTXt, or iTXt with
// the compression flag), which DecompressionStream inflates.
import { licenseIdInXmp } from '../../../events/generation-values';

export type LicenseInFile =
  /** No XMP packet at all (a screenshot, a re-saved copy, another site's image). */
  | { kind: 'no-xmp' }
  /** XMP, but none of our license fields (an image from elsewhere). */
  | { kind: 'no-license' }
  | { kind: 'license'; licenseId: string };

const OPEN = ascii('<x:xmpmeta');
const CLOSE = ascii('</x:xmpmeta>');
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const XMP_KEYWORD = 'XML:com.adobe.xmp';

function ascii(text: string): Uint8Array {
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

/** The first index of `needle` in `hay` at or after `from`, or -1. */
function indexOf(hay: Uint8Array, needle: Uint8Array, from = 0): number {
  const first = needle[0];
  const last = hay.length - needle.length;
  outer: for (let i = hay.indexOf(first, from); i !== -1 && i <= last; i = hay.indexOf(first, i + 1)) {
    for (let j = 1; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}

/** Every `<x:xmpmeta ...>...</x:xmpmeta>` in the bytes, as text. */
function packetsIn(bytes: Uint8Array): string[] {
  const packets: string[] = [];
  const utf8 = new TextDecoder('utf-8', { fatal: false });
  for (let start = indexOf(bytes, OPEN); start !== -1; start = indexOf(bytes, OPEN, start + 1)) {
    const end = indexOf(bytes, CLOSE, start);
    if (end === -1) break;
    packets.push(utf8.decode(bytes.subarray(start, end + CLOSE.length)));
  }
  return packets;
}

async function inflate(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([data as BlobPart]).stream().pipeThrough(new DecompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The XMP text chunks of a PNG (tEXt, zTXt, iTXt with the XMP keyword), inflated where compressed. */
async function pngXmpChunks(bytes: Uint8Array): Promise<Uint8Array[]> {
  if (bytes.length < 8 || PNG_SIGNATURE.some((b, i) => bytes[i] !== b)) return [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const found: Uint8Array[] = [];
  const latin1 = new TextDecoder('latin1');
  for (let at = 8; at + 12 <= bytes.length; ) {
    const length = view.getUint32(at);
    const type = latin1.decode(bytes.subarray(at + 4, at + 8));
    const data = bytes.subarray(at + 8, Math.min(bytes.length, at + 8 + length));
    at += 12 + length;
    if (type === 'IEND') break;
    if (type !== 'zTXt' && type !== 'iTXt' && type !== 'tEXt') continue;
    const nul = data.indexOf(0);
    if (nul === -1 || latin1.decode(data.subarray(0, nul)) !== XMP_KEYWORD) continue;
    try {
      if (type === 'tEXt') found.push(data.subarray(nul + 1));
      else if (type === 'zTXt') found.push(await inflate(data.subarray(nul + 2)));
      else {
        // iTXt: keyword\0, compression flag, method, language tag\0, translated keyword\0, text
        const compressed = data[nul + 1] === 1;
        const lang = data.indexOf(0, nul + 3);
        const translated = lang === -1 ? -1 : data.indexOf(0, lang + 1);
        if (translated === -1) continue;
        const text = data.subarray(translated + 1);
        found.push(compressed ? await inflate(text) : text);
      }
    } catch {
      // a damaged chunk: read on
    }
  }
  return found;
}

/** What license, if any, an image file's bytes carry. */
export async function licenseInFile(bytes: Uint8Array): Promise<LicenseInFile> {
  const packets = packetsIn(bytes);
  for (const chunk of await pngXmpChunks(bytes)) packets.push(...packetsIn(chunk));
  if (packets.length === 0) return { kind: 'no-xmp' };
  for (const packet of packets) {
    const licenseId = licenseIdInXmp(packet);
    if (licenseId) return { kind: 'license', licenseId };
  }
  return { kind: 'no-license' };
}
