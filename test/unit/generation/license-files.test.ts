import sharp from 'sharp';
import { LICENSE_CHECKS_PER_HOUR, LICENSE_THUMBNAIL_SIZE } from '../../../events/license-check';
import { checkLicenseFile, type CheckDeps } from '../../../functions/generation/routes/check-license-file/service';
import { getLicenseThumbnail } from '../../../functions/generation/routes/get-license-thumbnail/service';
import { eraseClientGenerations, licensePixelHash } from '../../../functions/generation/license-files';
import type { ClientGenerations, LicenseRecord } from '../../../functions/generation/store';
import { pixelHashOf, type PixelHash } from '../../../functions/shared/pixel-hash';
import { inMemoryRateLimiter } from '../../../functions/shared/rate-limit';
import { memoryBucket } from '../../../functions/shared/s3';

/** A small picture: a tinted square with a dark circle (a different `seed` moves the circle). */
const picture = (seed = 20, size = { width: 48, height: 36 }) =>
  sharp({ create: { ...size, channels: 3, background: '#c96' } })
    .composite([{ input: Buffer.from(`<svg width="${size.width}" height="${size.height}"><circle cx="${seed}" cy="18" r="12" fill="#123"/></svg>`), left: 0, top: 0 }])
    .png()
    .toBuffer();
const xmp = (id: string) => `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:humanly="https://humanly.example/ns/license/1.0/" humanly:LicenseId="${id}"/></rdf:RDF></x:xmpmeta>`;

describe('the pixel hash', () => {
  it('is the same for the same pixels in another file: re-compressed, metadata stripped or changed, alpha added, lossless WebP', async () => {
    const file = await picture();
    const { sha256, width, height } = await pixelHashOf(file);
    expect({ width, height }).toEqual({ width: 48, height: 36 });
    const copies = [
      await sharp(file).png({ compressionLevel: 9 }).toBuffer(),
      await sharp(file).png().withXmp(xmp('lic_aaaaaaaaaaaaaaaaaaaaaa')).toBuffer(),
      await sharp(file).ensureAlpha().png().toBuffer(),
      await sharp(file).webp({ lossless: true }).toBuffer(),
      await sharp(file).toColourspace('rgb16').png().toBuffer(),
    ];
    for (const copy of copies) expect((await pixelHashOf(copy)).sha256).toBe(sha256);
  });

  it('differs for another picture, one changed pixel, another size or a lossy copy', async () => {
    const file = await picture();
    const { sha256 } = await pixelHashOf(file);
    const others = [
      await picture(21),
      await sharp(file).composite([{ input: { create: { width: 1, height: 1, channels: 4, background: '#fff' } }, left: 5, top: 5 }]).png().toBuffer(),
      await sharp(file).resize(47, 36, { fit: 'fill' }).png().toBuffer(),
      await sharp(file).jpeg({ quality: 90 }).toBuffer(),
    ];
    for (const other of others) expect((await pixelHashOf(other)).sha256).not.toBe(sha256);
  });

  it('refuses what is not an image, whole, with a 400 that says so', async () => {
    const file = await picture();
    for (const bad of [Buffer.from('plain words'), file.subarray(0, file.length - 30), Buffer.alloc(0)]) {
      await expect(pixelHashOf(bad)).rejects.toMatchObject({ status: 400, message: expect.stringContaining('not an image we can read') });
    }
  });
});

const LICENSE: LicenseRecord = {
  id: 'lic_aaaaaaaaaaaaaaaaaaaaaa',
  generationId: 'gen-1',
  index: 0,
  key: 'generations/acc-1/gen-1/lic_aaaaaaaaaaaaaaaaaaaaaa.png',
  talentId: 'maya-chen',
  talentName: 'Maya Chen',
  accountId: 'acc-1',
  licensee: 'Ada Lovelace',
  style: 'Portrait',
  scope: 'commercial',
  issuedAt: '2026-11-20T10:00:00.000Z',
  creditValueMicros: 300_000,
};

async function checkDeps(license: LicenseRecord | undefined, stored?: Buffer) {
  const images = memoryBucket('images');
  if (stored && license) await images.write(license.key, stored, 'image/png');
  const kept: Array<[string, PixelHash]> = [];
  const limiter = inMemoryRateLimiter();
  const deps: CheckDeps = {
    generations: { getLicense: async (id) => (license && id === license.id ? license : undefined) },
    images,
    keepPixelHash: async (id, hash) => void kept.push([id, hash]),
    limit: limiter,
  };
  return { deps, kept, limiter, images };
}

describe('checking a file against its license', () => {
  const request = (file: Buffer, contentType = 'image/png', id = LICENSE.id) => ({ id, contentType, file });

  it('matches the licensed image in another file, keeps the stored hash, and tells another image apart', async () => {
    const stored = await picture();
    const { deps, kept } = await checkDeps(LICENSE, stored);
    const copy = await sharp(stored).png({ compressionLevel: 9 }).withXmp(xmp('lic_bbbbbbbbbbbbbbbbbbbbbb')).toBuffer();
    await expect(checkLicenseFile(deps, request(copy), { ip: '1.2.3.4' })).resolves.toMatchObject({ license: { id: LICENSE.id, image: 'stored' }, file: 'licensed-image' });
    expect(kept).toEqual([[LICENSE.id, await pixelHashOf(stored)]]);
    const forged = await sharp(await picture(30)).png().withXmp(xmp(LICENSE.id)).toBuffer();
    expect((await checkLicenseFile(deps, request(forged), { ip: '1.2.3.4' })).file).toBe('other-image');
    expect((await checkLicenseFile(deps, request(await picture(20, { width: 40, height: 30 })), { ip: '1.2.3.4' })).file).toBe('other-image');
  });

  it('uses the kept hash, so an erased license (no file) still checks; without either, the file cannot be compared', async () => {
    const stored = await picture();
    const erased = { ...LICENSE, erasedAt: '2026-11-25T00:00:00.000Z', licensee: 'A Humanly client', pixelHash: await pixelHashOf(stored) };
    const { deps } = await checkDeps(erased);
    await expect(checkLicenseFile(deps, request(stored), { ip: '1.2.3.4' })).resolves.toMatchObject({ license: { image: 'erased', licensee: 'A Humanly client' }, file: 'licensed-image' });
    const { deps: none } = await checkDeps(LICENSE);
    expect((await checkLicenseFile(none, request(stored), { ip: '1.2.3.4' })).file).toBe('not-comparable');
  });

  it('refuses a bad id, type, empty or large body before counting, and counts each checked file per network', async () => {
    const stored = await picture();
    const { deps, limiter } = await checkDeps(LICENSE, stored);
    const ip = { ip: '5.6.7.8' };
    await expect(checkLicenseFile(deps, request(stored, 'image/png', 'nope'), ip)).rejects.toMatchObject({ status: 400, fields: { id: expect.any(String) } });
    await expect(checkLicenseFile(deps, request(stored, 'application/json'), ip)).rejects.toMatchObject({ status: 415 });
    await expect(checkLicenseFile(deps, request(Buffer.alloc(0)), ip)).rejects.toMatchObject({ status: 400 });
    await expect(checkLicenseFile(deps, request(Buffer.alloc(5 * 1024 * 1024)), ip)).rejects.toMatchObject({ status: 413 });
    expect(limiter.hits.size).toBe(0);
    for (let i = 0; i < LICENSE_CHECKS_PER_HOUR; i++) await checkLicenseFile(deps, request(stored, 'image/png; charset=binary'), ip);
    await expect(checkLicenseFile(deps, request(stored), ip)).rejects.toMatchObject({ status: 429 });
    await expect(checkLicenseFile(deps, request(stored), { ip: '9.9.9.9' })).resolves.toMatchObject({ file: 'licensed-image' });
  });
});

describe('the license page thumbnail', () => {
  it('is a small WebP without metadata, made once and kept beside the image; 404s say why there is none', async () => {
    const images = memoryBucket('images');
    const large = await sharp(await picture(20, { width: 48, height: 36 })).resize(960, 720).png().withXmp(xmp(LICENSE.id)).toBuffer();
    await images.write(LICENSE.key, large, 'image/png');
    const deps = { generations: { getLicense: async (id: string) => (id === LICENSE.id ? LICENSE : undefined) }, images };
    const thumbnail = await getLicenseThumbnail(deps, LICENSE.id);
    const meta = await sharp(thumbnail).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height, xmp: meta.xmp }).toEqual({ format: 'webp', width: LICENSE_THUMBNAIL_SIZE, height: 240, xmp: undefined });
    expect([...images.objects.keys()]).toEqual([LICENSE.key, 'generations/acc-1/gen-1/lic_aaaaaaaaaaaaaaaaaaaaaa.thumb.webp']);
    expect((await getLicenseThumbnail(deps, LICENSE.id)).equals(thumbnail)).toBe(true);

    await expect(getLicenseThumbnail(deps, 'lic_cccccccccccccccccccccc')).rejects.toMatchObject({ status: 404, message: 'License not found' });
    const erased = { generations: { getLicense: async () => ({ ...LICENSE, erasedAt: '2026-11-25T00:00:00.000Z' }) }, images };
    await expect(getLicenseThumbnail(erased, LICENSE.id)).rejects.toMatchObject({ status: 404, message: expect.stringContaining('erased at their request') });
    const missing = { generations: { getLicense: async () => LICENSE }, images: memoryBucket('empty') };
    await expect(getLicenseThumbnail(missing, LICENSE.id)).rejects.toMatchObject({ status: 404, message: "This license's image is not stored." });
  });
});

describe("erasing a client's generations", () => {
  it('keeps each pixel hash first, marks the licenses, deletes every file of the accounts, redacts the generations last', async () => {
    const images = memoryBucket('images');
    const file = await picture();
    const keys = ['generations/acc-1/gen-1/lic_a.png', 'generations/acc-1/gen-1/lic_a.thumb.webp', 'generations/acc-1/gen-1/lic_b.png', 'generations/acc-10/gen-9/lic_z.png'];
    for (const key of keys) await images.write(key, key.endsWith('lic_b.png') ? Buffer.from('not a png') : file, 'image/png');
    const calls: string[] = [];
    const found: ClientGenerations = {
      accountIds: ['acc-1'],
      generations: [{ id: 'gen-1', accountId: 'acc-1', status: 'succeeded', updatedAt: '2026-11-20T10:00:00.000Z' }],
      licenses: [
        { id: 'lic_a', accountId: 'acc-1', key: keys[0] },
        // Undecodable: it cannot be checked, and goes all the same.
        { id: 'lic_b', accountId: 'acc-1', key: keys[2] },
        // Already erased by an earlier run: its file is gone and it is not read again.
        { id: 'lic_c', accountId: 'acc-1', key: 'generations/acc-1/gen-0/lic_c.png', erasedAt: '2026-11-19T00:00:00.000Z' },
      ],
    };
    const result = await eraseClientGenerations(
      {
        images,
        pixelHashOf,
        keepPixelHash: async (id) => void calls.push(`hash ${id} (files: ${images.objects.size})`),
        redactLicense: async (id, at) => void calls.push(`license ${id} ${at} (files: ${images.objects.size})`),
        redactGeneration: async (id, at) => void calls.push(`generation ${id} ${at} (files: ${images.objects.size})`),
      },
      found,
      new Date('2026-11-25T12:00:00.000Z'),
    );
    expect(calls).toEqual([
      'hash lic_a (files: 4)',
      'license lic_a 2026-11-25T12:00:00.000Z (files: 4)',
      'license lic_b 2026-11-25T12:00:00.000Z (files: 4)',
      'license lic_c 2026-11-25T12:00:00.000Z (files: 4)',
      'generation gen-1 2026-11-25T12:00:00.000Z (files: 1)',
    ]);
    expect(result).toEqual({ generations: 1, licenses: 3, images: 3 });
    // Another account whose id starts the same is not touched.
    expect([...images.objects.keys()]).toEqual(['generations/acc-10/gen-9/lic_z.png']);
  });

  it('a license without a kept hash has it computed from its file once', async () => {
    const images = memoryBucket('images');
    const file = await picture();
    await images.write(LICENSE.key, file, 'image/png');
    const kept: string[] = [];
    const deps = { images, pixelHashOf, keepPixelHash: async (id: string) => void kept.push(id) };
    expect(await licensePixelHash(deps, LICENSE)).toEqual(await pixelHashOf(file));
    const hash = await pixelHashOf(file);
    expect(await licensePixelHash(deps, { ...LICENSE, pixelHash: hash })).toBe(hash);
    expect(await licensePixelHash(deps, { ...LICENSE, key: 'generations/none.png' })).toBeUndefined();
    expect(kept).toEqual([LICENSE.id]);
  });
});
