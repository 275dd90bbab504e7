// The talent's data export with in-memory parts (docs/royalties.md#likeness): the application's
// answers without its photos' keys or the workflow's internals, every license of the likeness
// (claimed and open accruals) in issue order with its public page, the statements with their
// lines, and no prompt anywhere.
import type { AccrualLine } from '../../../events/royalties';
import { buildStatement } from '../../../functions/royalties/arithmetic';
import { DataExport } from '../../../events/likeness';
import { dataExportFilename, exportMyData, type DataExportDeps } from '../../../functions/likeness/routes/export-my-data/service';
import type { StoredApplication } from '../../../functions/founding/store';
import { noRateLimit } from '../../../functions/shared/rate-limit';
import type { StatementRecord, StoredAccrual } from '../../../functions/royalties/store';

const caller = { sub: 's1', email: 'tia@people.example', role: 'talent' as const, emailVerified: true };
const accrual = (licenseId: string, at: string, over: Partial<StoredAccrual> = {}): StoredAccrual => ({
  licenseId,
  generationId: `gen-${licenseId}`,
  at,
  month: at.slice(0, 7),
  creditValueMicros: 250_000,
  royaltyPlan: 'standard-tiers',
  talentId: 'tia-ray',
  accountId: 'client-1',
  ...over,
});

it('exports the profile, the application without photo keys, every license without prompts, and the statements', async () => {
  const october = [accrual('lic_b', '2026-10-03T10:00:00.000Z'), accrual('lic_a', '2026-10-01T09:00:00.000Z')];
  const open = [accrual('lic_c', '2026-11-20T08:00:00.000Z')];
  const built = buildStatement(october as AccrualLine[], 0);
  const statement: StatementRecord = {
    id: '2026-10_tia-ray',
    talentId: 'tia-ray',
    talentName: 'Tia Ray',
    month: '2026-10',
    closedAt: '2026-11-01T01:00:00.000Z',
    totals: built.totals,
    fromMonth: '2026-10',
    audit: [],
  };
  const application = {
    id: 'app_1',
    program: 'founding',
    status: 'accepted',
    firstName: 'Tia',
    lastName: 'Ray',
    email: caller.email,
    location: 'Porto',
    submittedAt: '2026-01-02T00:00:00.000Z',
    imagePaths: ['pending/folder/a.jpg', 'pending/folder/b.jpg'],
    uploadFolder: 'folder',
    taskToken: 'secret-token',
    fingerprint: 'fp',
    validPhotoCount: 2,
    talentId: 'tia-ray',
  } as StoredApplication;
  const licensee = (id: string) => `Brand of ${id}`;
  const deps: DataExportDeps = {
    accounts: {
      get: async () => ({ id: 's1', email: caller.email, full_name: 'Tia Ray', role: 'talent', disabled: false, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' }),
      create: jest.fn(),
    },
    standing: {
      founding: {
        getEmailLock: async () => ({ applicationId: 'app_1', fingerprint: 'f', submittedAt: 'x', response: { success: true, applicationId: 'app_1' } }),
        getApplication: async () => application,
      },
      talent: {
        get: async (id) => ({ id, name: 'Tia Ray', image: '/t.svg', tagline: 't', bio: 'b', generationCount: 3, featured: false, tags: [], samples: [], founding: false, royaltyPlan: 'standard-tiers', status: 'active' }),
        getExcludedIndustries: async () => ['politics'],
      },
    },
    founding: { getApplication: async () => application },
    talent: {
      getForGeneration: async (id) => ({
        talent: { id, name: 'Tia Ray', image: '/t.svg', tagline: 't', bio: 'b', generationCount: 3, featured: false, tags: [], samples: [], founding: false, royaltyPlan: 'standard-tiers', status: 'active' },
        controls: { generation: { model: 'humanly/tia-secret-model', triggerWord: 'TIAWORD' }, paused: true },
      }),
    },
    royalties: {
      listStatements: async () => [statement],
      claimedAccruals: async (_t, month) => (month === '2026-10' ? october : []),
      openAccruals: async () => open,
      claimedTakenBack: async () => [],
      claimedGivenBack: async () => [],
    },
    generations: {
      getLicense: async (id) => ({
        id,
        generationId: `gen-${id}`,
        index: 0,
        key: `generations/${id}.png`,
        talentId: 'tia-ray',
        talentName: 'Tia Ray',
        accountId: 'client-1',
        licensee: licensee(id),
        style: 'Portrait',
        scope: 'commercial',
        issuedAt: `${id === 'lic_c' ? '2026-11-20T08:00:00.000Z' : '2026-10-01T09:00:00.000Z'}`,
        creditValueMicros: 250_000,
      }),
    },
    trainings: {
      listTrainings: async (talentId) => {
        const base = { talentId, applicationId: 'app_1', zipKey: 'training-sets/trn_secretzip.zip', logsUrl: 'https://replicate.example/p/secret-logs' };
        const samples = [{ index: 0, prompt: 'TIAWORD as a prompt', key: 'samples/trn_a/0.png', predictionId: 'secret-prediction' }];
        return [
          { ...base, id: 'trn_a', number: 1, reason: 'acceptance', status: 'approved', createdAt: '2026-01-05T00:00:00.000Z', updatedAt: 'x', version: 'v'.repeat(64), versionRef: `humanly/tia-secret-model:${'v'.repeat(64)}`, completedAt: '2026-01-05T01:00:00.000Z', approvedAt: '2026-01-06T00:00:00.000Z', samples, taskToken: 'secret-token', replicateTrainingId: 'secret-training' },
          { ...base, id: 'trn_b', number: 2, reason: 'console', status: 'training', createdAt: '2026-02-01T00:00:00.000Z', updatedAt: 'x', requestedBy: 'admin@humanly.example', note: 'secret note' },
        ];
      },
    },
    siteUrl: 'https://humanly.example/',
    limit: noRateLimit,
    now: () => new Date('2026-11-25T10:00:00.000Z'),
  };

  const data = DataExport.parse(await exportMyData(deps, caller));
  expect(data.exportedAt).toBe('2026-11-25T10:00:00.000Z');
  expect(data.profile).toEqual({ id: 's1', full_name: 'Tia Ray', email: caller.email, createdAt: '2026-01-01T00:00:00.000Z' });
  expect(data.application).toEqual({
    id: 'app_1',
    status: 'accepted',
    submittedAt: '2026-01-02T00:00:00.000Z',
    fields: { program: 'founding', firstName: 'Tia', lastName: 'Ray', email: caller.email, location: 'Porto', talentId: 'tia-ray' },
    photoCount: 2,
  });
  expect(data.likeness).toMatchObject({ state: 'paused', likeness: { talentId: 'tia-ray', excludedIndustries: ['politics'] } });
  // The model's trainings: what and when, and the version's id.
  expect(data.trainings).toEqual([
    { number: 1, status: 'approved', version: 'v'.repeat(64), createdAt: '2026-01-05T00:00:00.000Z', completedAt: '2026-01-05T01:00:00.000Z', approvedAt: '2026-01-06T00:00:00.000Z' },
    { number: 2, status: 'training', createdAt: '2026-02-01T00:00:00.000Z' },
  ]);
  expect(data.licenses.map((l) => l.licenseId)).toEqual(['lic_a', 'lic_b', 'lic_c']);
  expect(data.licenses[0]).toEqual({ licenseId: 'lic_a', issuedAt: '2026-10-01T09:00:00.000Z', licensee: 'Brand of lic_a', url: 'https://humanly.example/licenses/lic_a' });
  expect(data.statements).toHaveLength(1);
  expect(data.statements[0]).toMatchObject({ id: '2026-10_tia-ray', totals: built.totals, payout: { status: 'due' } });
  expect(data.statements[0]!.lines.map((l) => l.licenseId)).toEqual(['lic_a', 'lic_b']);
  // Nothing of the workflow's internals or the model leaves.
  const text = JSON.stringify(data);
  for (const hidden of ['pending/folder', 'secret-token', 'tia-secret-model', 'TIAWORD', 'prompt', 'secret', 'samples/', 'training-sets/', 'https://replicate', 'admin@']) expect(text).not.toContain(hidden);
  expect(dataExportFilename(new Date('2026-11-25T23:59:00.000Z'))).toBe('humanly-data-2026-11-25.json');
});
