/** What a file is, by its first bytes (never by its name or the type the browser claimed). */
export type Sniffed = 'jpeg' | 'png' | 'zip' | 'other';

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function sniff(head: Uint8Array): Sniffed {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.length >= 8 && PNG.every((b, i) => head[i] === b)) return 'png';
  // Local file header, or the end-of-central-directory record of an empty zip.
  if (head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && ((head[2] === 3 && head[3] === 4) || (head[2] === 5 && head[3] === 6))) {
    return 'zip';
  }
  return 'other';
}
