// Matching a reported image with a delivered one (decision 059), on real images drawn with sharp
// the way the twin's Replicate emulator draws its outputs: a delivered image's JPEG, resized and
// cropped copies are the same image and reach it through the index keys; other pictures, even of
// the same layout, are not; a file that is no image fails with a typed 415; the license id is read
// from the XMP the delivery writes, in PNG (as delivered, and compressed) and JPEG.
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { renderPreview } from '../../../infra/local/emulators/replicate/preview';
import { licenseXmp } from '../../../functions/generation/steps/deliver-images/xmp';
import {
  candidateKeys,
  compare,
  fingerprintImage,
  HASH_BITS,
  indexKeys,
  licenseIdInMetadata,
  MATCH_THRESHOLD,
  NotAnImageError,
  type Fingerprint,
} from '../../../functions/reports/matching';

const LICENSE_ID = 'lic_AbCdEfGhIjKlMnOpQrStUv';

/** A talent-like subject: a face of simple shapes on a coloured ground (an SVG, as the talent pictures are). */
const subject = (skin: string, ground: string, hair: string) =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256"><rect width="256" height="256" fill="${ground}"/>` +
      `<circle cx="60" cy="60" r="40" fill="#ffffff" opacity="0.4"/><ellipse cx="128" cy="120" rx="56" ry="70" fill="${skin}"/>` +
      `<path d="M70 110 Q128 10 186 110 L186 80 Q128 20 70 80 Z" fill="${hair}"/><circle cx="106" cy="118" r="7" fill="#222"/>` +
      `<circle cx="150" cy="118" r="7" fill="#222"/><path d="M104 160 Q128 180 152 160" stroke="#7a2e2e" stroke-width="5" fill="none"/>` +
      `<rect x="60" y="196" width="136" height="60" rx="30" fill="${hair}"/></svg>`,
  );

let delivered: Buffer;
let deliveredFp: Fingerprint;

beforeAll(async () => {
  delivered = await renderPreview(subject('#e0b48c', '#7fb0d8', '#3b2a1e'), 'a person reading in a sunlit cafe, portrait style', 0, 4);
  deliveredFp = await fingerprintImage(delivered);
});

/** Whether the reported fingerprint reaches the delivered one through the index keys. */
const reaches = (reported: Fingerprint, target: Fingerprint) => {
  const indexed = new Set(indexKeys(target));
  return candidateKeys(reported).some((key) => indexed.has(key));
};

describe('fingerprintImage and compare', () => {
  it('takes the same pixels in another file for the delivered image, by its exact pixels', async () => {
    const resaved = await sharp(delivered).png({ compressionLevel: 9 }).withMetadata().toBuffer();
    const fp = await fingerprintImage(resaved);
    expect(compare(fp, deliveredFp)).toEqual({ same: true, distance: 0, how: 'exact-pixels', bits: 0 });
    expect(reaches(fp, deliveredFp)).toBe(true);
  });

  it.each([
    ['a JPEG at quality 60', (img: Buffer) => sharp(img).jpeg({ quality: 60 }).toBuffer()],
    ['a 50% resize', (img: Buffer) => sharp(img).resize(256).png().toBuffer()],
    ['a 10% crop around the centre', (img: Buffer) => sharp(img).extract({ left: 26, top: 26, width: 461, height: 461 }).png().toBuffer()],
    ['a 10% crop off a corner', (img: Buffer) => sharp(img).extract({ left: 51, top: 0, width: 461, height: 461 }).png().toBuffer()],
    ['a 10% crop between the parts', (img: Buffer) => sharp(img).extract({ left: 7, top: 33, width: 461, height: 461 }).png().toBuffer()],
    ['a tenth of the width cut', (img: Buffer) => sharp(img).extract({ left: 0, top: 0, width: 461, height: 512 }).png().toBuffer()],
    [
      'all three at once',
      async (img: Buffer) => sharp(await sharp(img).extract({ left: 20, top: 40, width: 461, height: 461 }).toBuffer()).resize(230).jpeg({ quality: 60 }).toBuffer(),
    ],
  ])('takes %s for the delivered image, perceptually, and reaches it through the index keys', async (_, copy) => {
    const fp = await fingerprintImage(await copy(delivered));
    const result = compare(fp, deliveredFp);
    expect(result).toMatchObject({ same: true, how: 'perceptual' });
    expect(result.distance).toBeLessThanOrEqual(MATCH_THRESHOLD);
    expect(reaches(fp, deliveredFp)).toBe(true);
  });

  it('does not take other pictures for the delivered image: another subject in the same layout, another output of the batch, a photo-like field', async () => {
    const others = [
      await renderPreview(subject('#8d5a3b', '#d8a07f', '#111111'), 'a person reading in a sunlit cafe, portrait style', 0, 4),
      await renderPreview(subject('#e0b48c', '#7fb0d8', '#3b2a1e'), 'a runner crossing a bridge at dawn, editorial style', 3, 4),
      await sharp({ create: { width: 400, height: 300, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 60 } } }).png().toBuffer(),
    ];
    for (const other of others) {
      const result = compare(await fingerprintImage(other), deliveredFp);
      expect(result.same).toBe(false);
      expect(result.distance).toBeGreaterThan(MATCH_THRESHOLD);
    }
  });

  it('keeps a fingerprint as plain JSON of a fixed shape', () => {
    expect(JSON.parse(JSON.stringify(deliveredFp))).toEqual(deliveredFp);
    expect(deliveredFp.perceptual).toMatch(new RegExp(`^[0-9a-f]{${HASH_BITS / 4}}$`));
    expect(deliveredFp.pixels).toMatchObject({ width: 512, height: 512 });
  });

  it.each([
    ['text', Buffer.from('this is not an image')],
    ['an empty file', Buffer.alloc(0)],
    ['a PNG cut short', () => delivered.subarray(0, 2000)],
  ])('fails with NotAnImageError (415) for %s', async (_, file) => {
    const bytes = typeof file === 'function' ? file() : file;
    const failure = fingerprintImage(bytes);
    await expect(failure).rejects.toBeInstanceOf(NotAnImageError);
    await expect(failure).rejects.toMatchObject({ status: 415 });
  });
});

describe('indexKeys and candidateKeys', () => {
  /** The fingerprint with its whole hash's bits flipped at `bits` (no part hash left to reach). */
  const flipped = (fp: Fingerprint, bits: number[]): Fingerprint => {
    const value = BigInt(`0x${fp.perceptual}`);
    const hex = bits.reduce((v, b) => v ^ (1n << BigInt(b)), value).toString(16).padStart(fp.perceptual.length, '0');
    return { ...fp, pixels: { ...fp.pixels, sha256: 'other' }, perceptual: hex };
  };

  it('reaches any hash within 7 bits of an indexed one, however the bits fall', () => {
    const target = { ...deliveredFp, parts: [] };
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let trial = 0; trial < 300; trial++) {
      const bits = new Set<number>();
      const count = 1 + (trial % 7);
      while (bits.size < count) bits.add(Math.floor(random() * HASH_BITS));
      expect(reaches(flipped(target, [...bits]), target)).toBe(true);
    }
  });

  it('indexes each key once, and a report looks up a bounded number of keys', () => {
    const keys = indexKeys(deliveredFp);
    expect(new Set(keys).size).toBe(keys.length);
    expect(candidateKeys(deliveredFp).length).toBeLessThanOrEqual(1 + 4 * 17);
  });
});

describe('licenseIdInMetadata', () => {
  const xmp = licenseXmp({ licenseId: LICENSE_ID, talentId: 'maya-chen', talentName: 'Maya Chen', licenseUrl: `https://humanly.example/licenses/${LICENSE_ID}` });

  it('reads the license id of a delivered PNG (as the delivery writes it) and of a JPEG copy that kept the XMP', async () => {
    const png = await sharp(delivered).png().withXmp(xmp).toBuffer();
    expect(licenseIdInMetadata(png)).toBe(LICENSE_ID);
    const jpeg = await sharp(png).jpeg({ quality: 80 }).withXmp(xmp).toBuffer();
    expect(licenseIdInMetadata(jpeg)).toBe(LICENSE_ID);
  });

  it('reads it from a compressed XMP chunk (zTXt)', async () => {
    const plain = await sharp(delivered).png().toBuffer();
    const data = Buffer.concat([Buffer.from('XML:com.adobe.xmp\0\0', 'latin1'), deflateSync(Buffer.from(xmp, 'utf8'))]);
    const chunk = Buffer.concat([Buffer.alloc(4), Buffer.from('zTXt', 'latin1'), data, Buffer.alloc(4)]);
    chunk.writeUInt32BE(data.length, 0);
    // After the signature and the header chunk (8 + 25 bytes).
    const png = Buffer.concat([plain.subarray(0, 33), chunk, plain.subarray(33)]);
    expect(licenseIdInMetadata(png)).toBe(LICENSE_ID);
  });

  it('finds none in a file without XMP, with XMP of no license of ours, or naming something that is no license id', async () => {
    expect(licenseIdInMetadata(await sharp(delivered).jpeg().toBuffer())).toBeUndefined();
    const foreign = xmp.replaceAll('https://humanly.example/ns/license/1.0/', 'https://elsewhere.example/ns/');
    expect(licenseIdInMetadata(await sharp(delivered).png().withXmp(foreign).toBuffer())).toBeUndefined();
    expect(licenseIdInMetadata(await sharp(delivered).png().withXmp(xmp.replaceAll(LICENSE_ID, 'lic_<script>')).toBuffer())).toBeUndefined();
    expect(licenseIdInMetadata(Buffer.from('not an image'))).toBeUndefined();
  });
});
