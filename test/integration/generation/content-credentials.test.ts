// Content Credentials on the twin (decision 062): an image generated through the workflow,
// downloaded as its owner would, read by the Content Authenticity Initiative's own reader (WASM,
// in Chromium): signed with the twin's test certificate through its KMS, created by a trained
// model, under our license; the same file with one pixel changed fails its data hash.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import sharp from 'sharp';
import { IPTC_TRAINED_ALGORITHMIC_MEDIA } from '../../../events/generation-values';
import { CREDENTIALS_LICENSE_LABEL } from '../../../events/content-credentials';
import { LicenseFileCheck } from '../../../events/license-check';
import { launchBrowser } from '../../support/browser';
import { caiReader, type CaiReading } from '../../support/cai-reader';
import { randomLoopback, send } from '../../support/callers';
import { withOnePixelChanged } from '../../support/content-credentials';
import { licensedImages } from '../../support/licensed-images';
import { fileMarker } from '../../support/marker';
import { useTwin } from '../../support/twin';

jest.setTimeout(180_000);
const twin = useTwin();
const run = fileMarker('c2pa');

let licenseId: string;
let file: Buffer;
let reading: CaiReading;
let tampered: CaiReading;

beforeAll(async () => {
  ({ licenseIds: [licenseId], files: [file] } = await licensedImages(twin(), { marker: run, name: 'Cora Proof', prompt: 'A potter at her wheel' }));

  const { browser, close } = await launchBrowser();
  try {
    const reader = await caiReader(browser);
    reading = await reader.read(file);
    tampered = await reader.read(await withOnePixelChanged(file));
    await reader.close();
  } finally {
    await close();
  }
});

const codes = (r: CaiReading, kind: 'success' | 'failure') => (r.store?.validation_results?.activeManifest?.[kind] ?? []).map((e) => e.code);

describe('a delivered image read by the CAI reader', () => {
  it('is validly signed by our test certificate (untrusted, as a test certificate is)', () => {
    expect(reading.store?.validation_state).toBe('Valid');
    expect(codes(reading, 'success')).toEqual(expect.arrayContaining(['claimSignature.validated', 'assertion.dataHash.match']));
    expect(codes(reading, 'failure')).toEqual(['signingCredential.untrusted']);
    const manifest = reading.store!.manifests[reading.store!.active_manifest!];
    expect(manifest.signature_info).toMatchObject({ alg: 'Ps256', issuer: 'Humanly', common_name: 'Humanly Content Credentials (TEST)' });
  });

  it('says created by a trained model, with our license of Maya Chen', () => {
    const manifest = reading.store!.manifests[reading.store!.active_manifest!];
    const data = (label: string) => manifest.assertions?.find((a) => a.label === label)?.data;
    expect(data('c2pa.actions.v2')).toMatchObject({ actions: [{ action: 'c2pa.created', digitalSourceType: IPTC_TRAINED_ALGORITHMIC_MEDIA, softwareAgent: { name: 'Humanly' } }] });
    expect(data(CREDENTIALS_LICENSE_LABEL)).toMatchObject({ licenseId, talentId: 'maya-chen', talentName: 'Maya Chen', licensee: 'Cora Proof', checkUrl: expect.stringMatching(/\/licenses\/check$/) });
    expect(data('c2pa.training-mining')).toMatchObject({ entries: { 'c2pa.ai_training': { use: 'notAllowed' } } });
  });

  it('with one pixel changed, its data hash no longer matches', () => {
    expect(codes(tampered, 'failure')).toContain('assertion.dataHash.mismatch');
    expect(tampered.store?.validation_state).toBe('Invalid');
  });

  it('keeps its XMP, which ExifTool reads, and the license check still finds the licensed image in the signed file', async () => {
    const xmp = (await sharp(file).metadata()).xmp!.toString('utf8');
    expect(xmp).toContain(`Iptc4xmpExt:DigitalSourceType="${IPTC_TRAINED_ALGORITHMIC_MEDIA}"`);
    expect(xmp).toContain(`humanly:LicenseId="${licenseId}"`);
    // ExifTool, as IPTC readers see it (installed by .ci/run; Debian's libimage-exiftool-perl).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'c2pa-xmp-'));
    try {
      fs.writeFileSync(path.join(dir, 'signed.png'), file);
      const [tags] = JSON.parse(execFileSync('exiftool', ['-j', '-XMP:all', path.join(dir, 'signed.png')], { encoding: 'utf8' })) as Array<Record<string, unknown>>;
      expect(tags).toMatchObject({ DigitalSourceType: IPTC_TRAINED_ALGORITHMIC_MEDIA, LicenseId: licenseId, TalentId: 'maya-chen', TalentName: 'Maya Chen', Marked: true });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const res = await send(`${twin().urls.api}/licenses/${licenseId}/check`, { method: 'POST', headers: { 'content-type': 'image/png' }, body: file, from: randomLoopback() });
    expect(LicenseFileCheck.parse(res.json).file).toBe('licensed-image');
  });
});
