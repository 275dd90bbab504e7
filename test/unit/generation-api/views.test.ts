// The generation routes' answers built from stored records (functions/generation/views.ts):
// the spec's prompt suffix read back, what an owner, an admin and the public each see, and the
// download's file name.
import fc from 'fast-check';
import { STYLES, styledPrompt } from '../../../events/generation-values';
import { AdminGeneration, Generation, LegacyPoll, LicenseDownload, PublicLicense } from '../../../events/generations';
import {
  adminGenerationRow,
  adminGenerationView,
  generationView,
  legacyPollView,
  licenseDownload,
  ownGeneration,
  parseLegacyPrompt,
  publicLicenseView,
} from '../../../functions/generation/views';
import type { GenerationRecord, LicenseRecord } from '../../../functions/generation/store';

const GEN_ID = '0b6d3c1e-8a5f-4b7e-9c2d-1f0e3a4b5c6d';
const record = (over: Partial<GenerationRecord> = {}): GenerationRecord => ({
  id: GEN_ID,
  accountId: 'acc-1',
  clientEmail: 'ada.private@people.example',
  licensee: 'Ada Lovelace',
  planId: 'starter',
  talentId: 'maya-chen',
  talentName: 'Maya Chen',
  prompt: 'a potter at her wheel',
  style: 'Portrait',
  count: 2,
  status: 'succeeded',
  createdAt: '2026-03-01T10:00:00.000Z',
  updatedAt: '2026-03-01T10:00:40.000Z',
  creditsReserved: 2,
  creditsSpent: 2,
  predictionId: 'pred-123',
  executionName: GEN_ID,
  steps: [{ step: 'reserved', at: '2026-03-01T10:00:01.000Z', detail: '2 credits' }, { step: 'delivered', at: '2026-03-01T10:00:39.000Z' }],
  images: [
    { index: 1, licenseId: 'lic_BBBBBBBBBBBBBBBBBBBBBB', key: `generations/acc-1/${GEN_ID}/lic_BBBBBBBBBBBBBBBBBBBBBB.png` },
    { index: 0, licenseId: 'lic_AAAAAAAAAAAAAAAAAAAAAA', key: `generations/acc-1/${GEN_ID}/lic_AAAAAAAAAAAAAAAAAAAAAA.png` },
  ],
  ...over,
});
const signer = { view: async (key: string) => `https://signed.example/${key}?X-Amz-Expires=600` };

describe('parseLegacyPrompt', () => {
  it('reads every style back from the spec suffix, in any case, and keeps the prompt without it', () => {
    for (const style of STYLES) {
      expect(parseLegacyPrompt(styledPrompt('a chef plating dessert', style))).toEqual({ prompt: 'a chef plating dessert', style });
    }
    expect(parseLegacyPrompt('a runner at dawn,   EDITORIAL   style ')).toEqual({ prompt: 'a runner at dawn', style: 'Editorial' });
  });

  it('defaults to Photorealistic and keeps the whole prompt without a known suffix', () => {
    expect(parseLegacyPrompt('a runner at dawn')).toEqual({ prompt: 'a runner at dawn', style: 'Photorealistic' });
    expect(parseLegacyPrompt('a runner, Baroque style')).toEqual({ prompt: 'a runner, Baroque style', style: 'Photorealistic' });
    // Only a trailing suffix counts.
    expect(parseLegacyPrompt('a Portrait style shoot, outdoors')).toEqual({ prompt: 'a Portrait style shoot, outdoors', style: 'Photorealistic' });
    // A suffix alone leaves no prompt: the text is kept so the prompt is never blank.
    expect(parseLegacyPrompt(', Portrait style').prompt).toBe(', Portrait style');
  });

  it('round-trips any prompt the create page sends', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 80 }).filter((s) => s.trim().length > 0 && !/,\s*\w+\s+style\s*$/i.test(s)),
        fc.constantFrom(...STYLES),
        (prompt, style) => {
          expect(parseLegacyPrompt(styledPrompt(prompt, style))).toEqual({ prompt: prompt.trim(), style });
        },
      ),
    );
  });
});

describe('what each reader sees', () => {
  it("the owner: images in order with signed URLs and licenses, none of the workflow's internals or the email", async () => {
    const view = await generationView(record(), signer);
    expect(Generation.strict().parse(view)).toBeTruthy();
    expect(view.images).toEqual([
      { index: 0, licenseId: 'lic_AAAAAAAAAAAAAAAAAAAAAA', url: `https://signed.example/generations/acc-1/${GEN_ID}/lic_AAAAAAAAAAAAAAAAAAAAAA.png?X-Amz-Expires=600` },
      { index: 1, licenseId: 'lic_BBBBBBBBBBBBBBBBBBBBBB', url: `https://signed.example/generations/acc-1/${GEN_ID}/lic_BBBBBBBBBBBBBBBBBBBBBB.png?X-Amz-Expires=600` },
    ]);
    const text = JSON.stringify(view);
    for (const secret of ['ada.private', 'pred-123', 'reserved', 'planId', 'licensee', 'executionName']) expect(text).not.toContain(secret);
    const failed = await generationView(record({ status: 'failed', images: [], creditsSpent: 0, failure: { code: 'policy', message: 'No.' } }), signer);
    expect(failed).toMatchObject({ status: 'failed', images: [], failure: { code: 'policy', message: 'No.' } });
  });

  it('the console: the steps, prediction id, execution, credits reserved and the client', async () => {
    const view = await adminGenerationView(record(), signer);
    expect(AdminGeneration.strict().parse(view)).toMatchObject({
      accountId: 'acc-1',
      clientEmail: 'ada.private@people.example',
      predictionId: 'pred-123',
      executionName: GEN_ID,
      creditsReserved: 2,
      steps: [{ step: 'reserved', at: '2026-03-01T10:00:01.000Z', detail: '2 credits' }, { step: 'delivered', at: '2026-03-01T10:00:39.000Z' }],
    });
    const row = adminGenerationRow(record({ predictionId: undefined }));
    expect(AdminGeneration.strict().parse(row)).toMatchObject({ images: [], steps: [] });
    expect(row).not.toHaveProperty('predictionId');
  });

  it('the spec poll: running statuses as stored, output once succeeded, the message once failed or canceled', async () => {
    expect(await legacyPollView(record({ status: 'processing', images: [] }), signer)).toEqual({ status: 'processing', output: null });
    expect(await legacyPollView(record({ status: 'queued', images: [] }), signer)).toEqual({ status: 'queued', output: null });
    const done = LegacyPoll.parse(await legacyPollView(record(), signer));
    expect(done).toEqual({ status: 'succeeded', output: [expect.stringContaining('lic_AAAAAAAAAAAAAAAAAAAAAA'), expect.stringContaining('lic_BBBBBBBBBBBBBBBBBBBBBB')] });
    const failure = { code: 'timed-out' as const, message: 'The image model did not finish in time. Your credits were returned.' };
    expect(await legacyPollView(record({ status: 'failed', images: [], failure }), signer)).toEqual({ status: 'failed', output: null, error: failure.message });
    expect(await legacyPollView(record({ status: 'canceled', images: [] }), signer)).toEqual({ status: 'failed', output: null, error: expect.any(String) });
  });

  const license: LicenseRecord = {
    id: 'lic_AAAAAAAAAAAAAAAAAAAAAA',
    generationId: GEN_ID,
    index: 0,
    key: `generations/acc-1/${GEN_ID}/lic_AAAAAAAAAAAAAAAAAAAAAA.png`,
    talentId: 'maya-chen',
    talentName: 'Maya Chen',
    accountId: 'acc-1',
    licensee: 'Ada Lovelace',
    style: 'Portrait',
    scope: 'commercial',
    issuedAt: '2026-03-01T10:00:39.000Z',
    creditValueMicros: 437_500,
  };

  it('the public: talent, licensee, date, scope, style and whether the image is stored, never the file, the account or the value', () => {
    const view = publicLicenseView(license);
    expect(PublicLicense.strict().parse(view)).toEqual({
      id: 'lic_AAAAAAAAAAAAAAAAAAAAAA',
      talentId: 'maya-chen',
      talentName: 'Maya Chen',
      licensee: 'Ada Lovelace',
      issuedAt: '2026-03-01T10:00:39.000Z',
      scope: 'commercial',
      style: 'Portrait',
      image: 'stored',
    });
    // Erased with its client's data (decision 035): still valid, no image, nothing of the hash shown.
    const pixelHash = { width: 512, height: 512, sha256: 'x'.repeat(43) };
    expect(PublicLicense.strict().parse(publicLicenseView({ ...license, licensee: 'A Humanly client', erasedAt: '2026-04-01T00:00:00.000Z', pixelHash }))).toMatchObject({
      licensee: 'A Humanly client',
      image: 'erased',
    });
  });

  it("an erased client's generation shows the console no image URL and when it was erased", async () => {
    const erased = { ...record(), clientEmail: '', prompt: '', licensee: 'A Humanly client', erasedAt: '2026-04-01T00:00:00.000Z' };
    const signed: string[] = [];
    const view = await adminGenerationView(erased, { view: async (key) => (signed.push(key), `https://signed.example/${key}`) });
    expect(AdminGeneration.strict().parse(view)).toMatchObject({ images: [], clientEmail: '', prompt: '', erasedAt: '2026-04-01T00:00:00.000Z' });
    expect(signed).toEqual([]);
  });

  it('a download names the talent and the license in its file name', async () => {
    const calls: Array<[string, string]> = [];
    const download = await licenseDownload(license, {
      download: async (key, filename) => {
        calls.push([key, filename]);
        return { url: 'https://signed.example/x', expiresAt: '2026-03-01T10:05:00.000Z' };
      },
    });
    expect(LicenseDownload.parse(download)).toEqual({ url: 'https://signed.example/x', filename: 'humanly-maya-chen-lic_AAAAAAAAAAAAAAAAAAAAAA.png', expiresAt: '2026-03-01T10:05:00.000Z' });
    expect(calls).toEqual([[license.key, 'humanly-maya-chen-lic_AAAAAAAAAAAAAAAAAAAAAA.png']]);
  });

  it("another client's generation, an unknown one and a malformed id all answer the same 404", async () => {
    const store = { get: async (id: string) => (id === GEN_ID ? record() : undefined) };
    await expect(ownGeneration(store, 'acc-1', GEN_ID)).resolves.toMatchObject({ id: GEN_ID });
    for (const [accountId, id] of [['acc-2', GEN_ID], ['acc-1', '1b6d3c1e-8a5f-4b7e-9c2d-1f0e3a4b5c6d'], ['acc-1', 'GEN#x']]) {
      await expect(ownGeneration(store, accountId, id)).rejects.toMatchObject({ status: 404, message: 'Generation not found' });
    }
  });
});
