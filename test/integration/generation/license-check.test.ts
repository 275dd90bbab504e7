// A license's image on the twin (decision 035): the public license page's thumbnail, and the file
// check that compares a dropped file's pixels with the licensed image. One generation of two images
// is made through the workflow and the Replicate emulator; its delivered files are downloaded as
// their owner would, then re-saved, stripped and forged.
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import sharp from 'sharp';
import { PublicLicense } from '../../../events/generations';
import {
  LICENSE_CHECK_MAX_BYTES,
  LICENSE_CHECKS_MESSAGE,
  LICENSE_CHECKS_PER_HOUR,
  LICENSE_IMAGE_MISSING_MESSAGE,
  LICENSE_THUMBNAIL_SIZE,
  LicenseFileCheck,
} from '../../../events/license-check';
import { generationKeys } from '../../../functions/generation/keys';
import { licenseXmp } from '../../../functions/generation/steps/deliver-images/xmp';
import { randomLoopback, send } from '../../support/callers';
import { licensedImages } from '../../support/licensed-images';
import { fileMarker } from '../../support/marker';
import { callApi, documentClient, useTwin } from '../../support/twin';

jest.setTimeout(180_000);
const twin = useTwin();
const run = fileMarker('lic');

let licenseIds: string[];
/** The delivered files, as their owner downloads them. */
let files: Buffer[];

const check = (licenseId: string, body: Buffer | string | undefined, contentType = 'image/png', from = randomLoopback()) =>
  send(`${twin().urls.api}/licenses/${licenseId}/check`, { method: 'POST', headers: contentType ? { 'content-type': contentType } : {}, body, from });

async function verdict(licenseId: string, file: Buffer, contentType = 'image/png') {
  const res = await check(licenseId, file, contentType);
  expect({ status: res.status, text: res.text.slice(0, 200) }).toMatchObject({ status: 200 });
  return LicenseFileCheck.parse(res.json).file;
}

/** The same pixels written as another file, its XMP replaced with `xmp` (or none). */
const resaved = async (file: Buffer, xmp?: string) => {
  const image = sharp(file).png({ compressionLevel: 9, adaptiveFiltering: true });
  return xmp ? image.withXmp(xmp).toBuffer() : image.toBuffer();
};
const xmpOf = (licenseId: string) => licenseXmp({ licenseId, talentId: 'maya-chen', talentName: 'Maya Chen', licenseUrl: `https://humanly.example/licenses/${licenseId}` });

beforeAll(async () => {
  ({ licenseIds, files } = await licensedImages(twin(), { marker: run, name: 'Lena Check', prompt: 'A florist at dawn', count: 2 }));
});

describe('the license page', () => {
  it('says the image is stored, and its thumbnail is a small WebP without the license inside, never the file', async () => {
    const license = PublicLicense.parse((await callApi(twin(), undefined, 'GET', `/licenses/${licenseIds[0]}`)).json);
    expect(license.image).toBe('stored');
    const res = await fetch(`${twin().urls.api}/licenses/${licenseIds[0]}/thumbnail`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/webp');
    const thumbnail = Buffer.from(await res.arrayBuffer());
    const meta = await sharp(thumbnail).metadata();
    const original = await sharp(files[0]).metadata();
    expect(meta.format).toBe('webp');
    expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(LICENSE_THUMBNAIL_SIZE);
    expect(Math.max(meta.width!, meta.height!)).toBeLessThan(Math.max(original.width!, original.height!));
    expect(meta.xmp).toBeUndefined();
    expect(thumbnail.length).toBeLessThan(files[0].length);
    // Kept once made: a second request answers the same bytes.
    expect(Buffer.from(await (await fetch(`${twin().urls.api}/licenses/${licenseIds[0]}/thumbnail`)).arrayBuffer()).equals(thumbnail)).toBe(true);
  });

  it('answers 404 naming why for an unknown license and one whose file is not stored, 400 for a bad id', async () => {
    expect(await callApi(twin(), undefined, 'GET', `/licenses/lic_${'Q'.repeat(22)}/thumbnail`)).toMatchObject({ status: 404, json: { error: 'License not found' } });
    expect(await callApi(twin(), undefined, 'GET', '/licenses/not-a-license/thumbnail')).toMatchObject({ status: 400, json: { fields: { id: expect.any(String) } } });
    // A license whose file is gone (written as the access matrix's fixture is: no object behind its key).
    const doc = documentClient(twin());
    const table = twin().physicalName('GenerationsTable');
    const { Item } = await doc.send(new GetCommand({ TableName: table, Key: generationKeys.license(licenseIds[1]) }));
    const orphan = `lic_${run.padEnd(22, 'x').slice(0, 22)}`;
    await doc.send(new PutCommand({ TableName: table, Item: { ...Item, ...generationKeys.license(orphan), id: orphan, key: `generations/none/${orphan}.png` } }));
    expect(await callApi(twin(), undefined, 'GET', `/licenses/${orphan}/thumbnail`)).toMatchObject({ status: 404, json: { error: LICENSE_IMAGE_MISSING_MESSAGE } });
    expect(await verdict(orphan, files[1])).toBe('not-comparable');
  });
});

describe('checking a file against its license', () => {
  it('the delivered file is the licensed image, and so is a copy re-saved with its metadata stripped, changed or another format', async () => {
    expect(await verdict(licenseIds[0], files[0])).toBe('licensed-image');
    expect(await verdict(licenseIds[0], await resaved(files[0]))).toBe('licensed-image');
    expect(await verdict(licenseIds[0], await resaved(files[0], xmpOf(licenseIds[1])))).toBe('licensed-image');
    expect(await verdict(licenseIds[0], await sharp(files[0]).webp({ lossless: true }).toBuffer(), 'image/webp')).toBe('licensed-image');
    expect(await verdict(licenseIds[0], await sharp(files[0]).removeAlpha().png().toBuffer(), 'application/octet-stream')).toBe('licensed-image');
    // The licensed image's pixel hash is kept on the license once computed.
    const { Item } = await documentClient(twin()).send(new GetCommand({ TableName: twin().physicalName('GenerationsTable'), Key: generationKeys.license(licenseIds[0]) }));
    expect(Item?.pixelHash).toMatchObject({ width: expect.any(Number), height: expect.any(Number), sha256: expect.stringMatching(/^[\w-]{43}$/) });
  });

  it('another image carrying a real license id is not its image: another render, one pixel changed, a resized copy', async () => {
    const forged = await resaved(files[1], xmpOf(licenseIds[0]));
    const res = await check(licenseIds[0], forged);
    expect(res.status).toBe(200);
    expect(LicenseFileCheck.parse(res.json)).toMatchObject({ license: { id: licenseIds[0], talentName: 'Maya Chen' }, file: 'other-image' });

    const { width, height } = await sharp(files[0]).metadata();
    const onePixel = await sharp(files[0])
      .composite([{ input: { create: { width: 1, height: 1, channels: 4, background: { r: 1, g: 2, b: 3, alpha: 1 } } }, left: 0, top: 0 }])
      .png()
      .withXmp(xmpOf(licenseIds[0]))
      .toBuffer();
    expect(await verdict(licenseIds[0], onePixel)).toBe('other-image');
    const resized = await sharp(files[0]).resize(width! - 1, height! - 1).png().withXmp(xmpOf(licenseIds[0])).toBuffer();
    expect(await verdict(licenseIds[0], resized)).toBe('other-image');
    // A lossy copy changes the pixels too: it is not the licensed file.
    expect(await verdict(licenseIds[0], await sharp(files[0]).jpeg({ quality: 95 }).toBuffer(), 'image/jpeg')).toBe('other-image');
  });

  it('refuses what is not an image file with a 4xx that says what is wrong, never a 5xx', async () => {
    const id = licenseIds[0];
    expect(await check(id, undefined)).toMatchObject({ status: 400, json: { error: 'Send the image file as the request body.' } });
    expect(await check(id, '{"file":"x"}', 'application/json')).toMatchObject({ status: 415, json: { error: expect.stringContaining('image/png') } });
    expect(await check(id, files[0], '')).toMatchObject({ status: 415 });
    expect(await check(id, 'plain words', 'image/png')).toMatchObject({ status: 400, json: { error: expect.stringContaining('not an image we can read') } });
    expect(await check(id, files[0].subarray(0, files[0].length - 200))).toMatchObject({ status: 400 });
    expect(await check(id, Buffer.alloc(LICENSE_CHECK_MAX_BYTES + 1, 1))).toMatchObject({ status: 413, json: { error: expect.stringContaining('too large') } });
    expect(await check(`lic_${'Q'.repeat(22)}`, files[0])).toMatchObject({ status: 404, json: { error: 'License not found' } });
    expect(await check('lic_short', files[0])).toMatchObject({ status: 400, json: { fields: { id: expect.any(String) } } });
    // Arbitrary bytes, a PNG signature with garbage after, and a header claiming a huge canvas.
    const png = files[0].subarray(0, 8);
    const hugeHeader = Buffer.from(files[0]);
    hugeHeader.writeUInt32BE(60_000, 16);
    hugeHeader.writeUInt32BE(60_000, 20);
    const bodies = [...fc.sample(fc.uint8Array({ minLength: 1, maxLength: 2048 }), { numRuns: 20, seed: 35 }).map((b) => Buffer.from(b)), Buffer.concat([png, Buffer.alloc(64, 7)]), hugeHeader];
    for (const body of bodies) {
      const res = await check(id, body);
      expect(res.status >= 400 && res.status < 500 && typeof res.json?.error === 'string' ? 'a 4xx saying why' : `${res.status}: ${res.text.slice(0, 200)}`).toBe('a 4xx saying why');
    }
  });

  it(`counts checks per network: after ${LICENSE_CHECKS_PER_HOUR} in an hour the next is refused with 429`, async () => {
    const from = randomLoopback();
    // Cheap requests that count: well formed, a license that does not exist (nothing decoded).
    const unknown = `lic_${'Z'.repeat(22)}`;
    for (let i = 0; i < LICENSE_CHECKS_PER_HOUR; i++) expect((await check(unknown, 'x', 'image/png', from)).status).toBe(404);
    expect(await check(licenseIds[0], files[0], 'image/png', from)).toMatchObject({ status: 429, json: { error: LICENSE_CHECKS_MESSAGE } });
    // Another network is not affected.
    expect((await check(licenseIds[0], files[0], 'image/png')).status).toBe(200);
  });
});
