// The license id a file's XMP names (decision 059): delivered images carry it as
// `humanly:LicenseId` in XMP_NAMESPACE (functions/generation/steps/deliver-images/xmp.ts). JPEG
// and WebP keep the packet as plain text; PNG keeps it in a text chunk that may be compressed
// (zTXt, or iTXt with the compression flag). The same reading as the license check page's.
import { inflateSync } from 'node:zlib';
import { licenseIdInXmp } from '../../../events/generation-values';

const OPEN = Buffer.from('<x:xmpmeta', 'latin1');
const CLOSE = Buffer.from('</x:xmpmeta>', 'latin1');
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const XMP_KEYWORD = 'XML:com.adobe.xmp';
/** The most a compressed XMP chunk may inflate to: a packet is a few kilobytes, a bomb is not read. */
const MAX_INFLATED_BYTES = 1024 * 1024;

/** Every `<x:xmpmeta ...>...</x:xmpmeta>` in the bytes, as text. */
function packetsIn(bytes: Buffer): string[] {
  const packets: string[] = [];
  for (let start = bytes.indexOf(OPEN); start !== -1; start = bytes.indexOf(OPEN, start + 1)) {
    const end = bytes.indexOf(CLOSE, start);
    if (end === -1) break;
    packets.push(bytes.subarray(start, end + CLOSE.length).toString('utf8'));
  }
  return packets;
}

/** The XMP text chunks of a PNG (tEXt, zTXt, iTXt with the XMP keyword), inflated where compressed. */
function pngXmpChunks(bytes: Buffer): Buffer[] {
  if (bytes.length < 8 || !bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return [];
  const found: Buffer[] = [];
  const inflate = (data: Buffer) => inflateSync(data, { maxOutputLength: MAX_INFLATED_BYTES });
  for (let at = 8; at + 12 <= bytes.length; ) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const data = bytes.subarray(at + 8, Math.min(bytes.length, at + 8 + length));
    at += 12 + length;
    if (type === 'IEND') break;
    if (type !== 'zTXt' && type !== 'iTXt' && type !== 'tEXt') continue;
    const nul = data.indexOf(0);
    if (nul === -1 || data.toString('latin1', 0, nul) !== XMP_KEYWORD) continue;
    try {
      if (type === 'tEXt') found.push(data.subarray(nul + 1));
      else if (type === 'zTXt') found.push(inflate(data.subarray(nul + 2)));
      else {
        // iTXt: keyword\0, compression flag, method, language tag\0, translated keyword\0, text
        const compressed = data[nul + 1] === 1;
        const lang = data.indexOf(0, nul + 3);
        const translated = lang === -1 ? -1 : data.indexOf(0, lang + 1);
        if (translated === -1) continue;
        const text = data.subarray(translated + 1);
        found.push(compressed ? inflate(text) : text);
      }
    } catch {
      // a damaged chunk: read on
    }
  }
  return found;
}

/**
 * The license id the file's XMP names, or undefined (no packet, none of our fields, or not a
 * license id). Only a claim: the caller confirms it against the license's image (a file can be
 * given any metadata).
 */
export function licenseIdInMetadata(file: Buffer): string | undefined {
  const packets = packetsIn(file);
  for (const chunk of pngXmpChunks(file)) packets.push(...packetsIn(chunk));
  for (const packet of packets) {
    const licenseId = licenseIdInXmp(packet);
    if (licenseId) return licenseId;
  }
  return undefined;
}
