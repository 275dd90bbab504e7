// Content Credentials in tests: reading a PNG's manifest and making the tampered copies a verifier
// must refuse (decision 062).
import sharp from 'sharp';

/** The PNG's chunks: type, and the whole chunk's bytes (length, type, data, CRC). */
function pngChunks(png: Buffer): Array<{ type: string; bytes: Buffer }> {
  const chunks: Array<{ type: string; bytes: Buffer }> = [];
  for (let at = 8; at < png.length; ) {
    const length = png.readUInt32BE(at);
    chunks.push({ type: png.toString('latin1', at + 4, at + 8), bytes: png.subarray(at, at + 12 + length) });
    at += 12 + length;
  }
  return chunks;
}

/** Whether the PNG carries a C2PA manifest store (its `caBX` chunk). */
export const hasManifest = (png: Buffer) => pngChunks(png).some((c) => c.type === 'caBX');

/**
 * The signed PNG with one pixel changed and its manifest kept: the pixels re-encoded (XMP
 * included), then the original `caBX` chunk put back where it was, before the image data, as a
 * forger who changed the image and copied the credentials would.
 */
export async function withOnePixelChanged(signed: Buffer): Promise<Buffer> {
  const { data, info } = await sharp(signed).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  data[0] ^= 0xff;
  const { xmp } = await sharp(signed).metadata();
  const changed = await sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } })
    .png()
    .withXmp(xmp!.toString('utf8'))
    .toBuffer();
  const manifest = pngChunks(signed).find((c) => c.type === 'caBX');
  if (!manifest) throw new Error('The PNG has no manifest to keep');
  const chunks = pngChunks(changed);
  const firstData = chunks.findIndex((c) => c.type === 'IDAT');
  chunks.splice(firstData, 0, manifest);
  return Buffer.concat([changed.subarray(0, 8), ...chunks.map((c) => c.bytes)]);
}
