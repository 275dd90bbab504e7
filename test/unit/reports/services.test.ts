// The reports wing's services with fakes (decision 058): URL safety, the report's limits and
// files, the decision's reviewer rule, the appeal's owner, the overdue check and the emails.
import { takedownNotice, SAME_REVIEWER_MESSAGE, REPORTS_EMAIL_LIMIT_MESSAGE, SAMPLE_NOT_FOUND_MESSAGE } from '../../../events/report-values';
import { ReportDecisionRequest, ReportRequest, isPlainlyPrivateHost } from '../../../events/reports';
import { inMemoryIdempotency } from '../../../functions/shared/idempotency';
import { inMemoryRateLimiter } from '../../../functions/shared/rate-limit';
import { clientStatementEmail, reportReceivedEmail } from '../../../functions/reports/emails';
import { submitReport } from '../../../functions/reports/routes/submit-report/service';
import { decideReport } from '../../../functions/reports/routes/decide-report/service';
import { checkOverdue } from '../../../functions/reports/triggers/overdue-check/service';
import { adminStats, type StatsDeps } from '../../../functions/console/routes/get-admin-stats/service';
import { FAILURE_METRICS } from '../../../events/metrics';
import { metricsWritten } from '../../support/metrics';
import { licenseOfKey } from '../../../functions/reports/triggers/index-delivered-image/service';
import { assertPublicUrl, isPrivateAddress } from '../../../functions/reports/url-safety';
import type { ReportCase, ReportFile } from '../../../functions/reports/store';

const FILE_ID = '6f1c7e9a-2b3d-4c5e-8f90-1a2b3c4d5e6f';
const request = (overrides: Record<string, unknown> = {}) =>
  ReportRequest.parse({
    category: 'outside-license',
    explanation: 'Used on a billboard',
    urls: ['https://billboards.example/a.jpg'],
    reporterRole: 'someone-else',
    name: 'Rosa',
    email: 'rosa@people.example',
    goodFaith: true,
    signature: 'Rosa',
    ...overrides,
  });

function memoryStore() {
  const cases = new Map<string, ReportCase>();
  const files = new Map<string, ReportFile>();
  return {
    cases,
    files,
    getFile: async (id: string) => files.get(id),
    attachFile: async (id: string, reference: string) => {
      const f = files.get(id);
      if (!f || (f.reference && f.reference !== reference)) return false;
      files.set(id, { ...f, reference });
      return true;
    },
    createCase: async (c: ReportCase) => {
      if (cases.has(c.reference)) return false;
      cases.set(c.reference, structuredClone(c));
      return true;
    },
    getCase: async (reference: string) => structuredClone(cases.get(reference)),
    listCases: async () => [...cases.values()],
    recordDecision: async (reference: string, decision: ReportCase['decisions'][number], move: { from: string; to: ReportCase['status'] }, entry: ReportCase['history'][number]) => {
      const c = cases.get(reference);
      if (!c || c.status !== move.from) return false;
      c.status = move.to;
      c.decisions.push(decision);
      c.history.push(entry);
      return true;
    },
    markOverdue: async (reference: string, at: string) => {
      const c = cases.get(reference)!;
      if (c.overdue) return false;
      c.overdue = true;
      c.history.push({ at, what: 'Overdue' });
      return true;
    },
  };
}

describe('URL safety', () => {
  it('refuses private, loopback, link-local, metadata and mapped addresses, and allows public ones', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '100.64.0.1', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '64:ff9b::10.0.0.1', 'not-an-ip']) {
      expect({ a, private: isPrivateAddress(a) }).toEqual({ a, private: true });
    }
    for (const a of ['8.8.8.8', '93.184.216.34', '2606:4700::1111']) expect({ a, private: isPrivateAddress(a) }).toEqual({ a, private: false });
    expect(['localhost', 'db.internal', 'printer.local', 'intranet', '[::1]', '127.0.0.1'].every(isPlainlyPrivateHost)).toBe(true);
    expect(isPlainlyPrivateHost('images.example')).toBe(false);
  });

  it('refuses a public-looking name that resolves to a private address, and another scheme', async () => {
    const resolve = async (host: string) => [{ address: host === 'inward.example' ? '10.0.0.5' : '93.184.216.34', family: 4 }];
    await expect(assertPublicUrl('https://inward.example/a.png', resolve)).rejects.toMatchObject({ status: 400, fields: { url: expect.stringContaining('public http') } });
    await expect(assertPublicUrl('ftp://images.example/a.png', resolve)).rejects.toMatchObject({ status: 400 });
    await expect(assertPublicUrl('https://user:pw@images.example/a.png', resolve)).rejects.toMatchObject({ status: 400 });
    await expect(assertPublicUrl('https://images.example/a.png', resolve)).resolves.toBeInstanceOf(URL);
  });
});

describe('submitting a report', () => {
  const deps = () => {
    const store = memoryStore();
    const published: Array<[string, object]> = [];
    return { store, published, deps: { store, publish: async (t: string, d: object) => void published.push([t, d]), once: inMemoryIdempotency(), limit: inMemoryRateLimiter() } };
  };

  it('opens a case due in 7 days, or 48 hours for an intimate image, and withholds a matched intimate image', async () => {
    const { store, published, deps: d } = deps();
    const now = new Date('2026-11-29T10:00:00Z');
    const plain = await submitReport({ ...d, now: () => now }, request(), { ip: '1.2.3.4' });
    expect(plain.dueAt).toBe('2026-12-06T10:00:00.000Z');
    store.files.set(FILE_ID, { fileId: FILE_ID, key: `report-files/${FILE_ID}`, size: 10, contentType: 'image/png', uploadedAt: now.toISOString(), match: { verdict: 'ours', licenseId: 'lic_x', talentName: 'Maya', licensedAt: now.toISOString(), how: 'perceptual' } });
    const intimate = await submitReport({ ...d, now: () => now }, request({ category: 'intimate', consentDenied: true, reporterRole: 'talent', urls: [], fileIds: [FILE_ID] as never }), { ip: '1.2.3.5' });
    expect(intimate).toMatchObject({ dueAt: '2026-12-01T10:00:00.000Z', match: { verdict: 'ours', licenseId: 'lic_x' } });
    expect(store.cases.get(intimate.reference)).toMatchObject({ hidden: true, files: [{ fileId: FILE_ID }] });
    expect(published.at(-1)).toEqual(['Report.Received', expect.objectContaining({ withheldLicenseId: 'lic_x' })]);
  });

  it('refuses a file not uploaded, and a sixth report of an address in a day', async () => {
    const { deps: d } = deps();
    await expect(submitReport(d, request({ urls: [], fileIds: ['00000000-0000-4000-8000-000000000000'] as never }), { ip: '1.2.3.4' })).rejects.toMatchObject({ status: 400 });
    const limited = { ...d, limit: inMemoryRateLimiter() };
    for (let i = 0; i < 5; i++) await submitReport(limited, request(), { ip: `1.2.3.${10 + i}` });
    await expect(submitReport(limited, request(), { ip: '1.2.3.99' })).rejects.toMatchObject({ status: 429, message: REPORTS_EMAIL_LIMIT_MESSAGE });
  });
});

describe('deciding', () => {
  it('an appealed case needs a different reviewer; a revocation is announced with the client breach', async () => {
    const store = memoryStore();
    const published: Array<[string, object]> = [];
    const at = '2026-11-29T10:00:00.000Z';
    store.cases.set('RPT-AAAAAA', {
      reference: 'RPT-AAAAAA', category: 'excluded-industry', status: 'open', receivedAt: at, dueAt: at, overdue: false, explanation: 'x', urls: [], files: [],
      reporter: { role: 'talent', name: 'R', email: 'r@people.example', signature: 'R' }, match: { verdict: 'ours', licenseId: 'lic_x', talentName: 'Maya', licensedAt: at, how: 'metadata' },
      hidden: false, decisions: [], history: [],
    });
    const deps = { store, licenses: { getLicense: async () => undefined }, talents: { get: async () => undefined }, files: { getUrl: async () => 'u' }, publish: async (t: string, d: object) => void published.push([t, d]) };
    const first = { sub: 'a', email: 'first@humanly.local' };
    await decideReport(deps, 'RPT-AAAAAA', { action: 'revoke-license', reasons: 'Gambling ad' }, first);
    expect(published.map(([t]) => t)).toEqual(['License.Revoked', 'Report.Decided']);
    expect(published[0][1]).toMatchObject({ licenseId: 'lic_x', clientBreach: true });
    store.cases.get('RPT-AAAAAA')!.status = 'appealed';
    await expect(decideReport(deps, 'RPT-AAAAAA', { action: 'dismiss', reasons: 'Again' }, first)).rejects.toMatchObject({ status: 409, message: SAME_REVIEWER_MESSAGE });
    published.length = 0;
    const closed = await decideReport(deps, 'RPT-AAAAAA', { action: 'dismiss', reasons: 'Within the license' }, { sub: 'b', email: 'second@humanly.local' });
    expect(closed.status).toBe('closed');
    // The appeal against the revocation was upheld: the license is reinstated.
    expect(published).toEqual([
      ['License.Reinstated', { version: 1, licenseId: 'lic_x', reference: 'RPT-AAAAAA', reinstatedAt: expect.any(String) }],
      ['Report.Decided', expect.objectContaining({ action: 'dismiss', afterAppeal: true, licenseId: 'lic_x' })],
    ]);
  });

  const at = '2026-11-29T10:00:00.000Z';
  const openCase = (reference: string, decisions: ReportCase['decisions'] = [], status: ReportCase['status'] = 'open'): ReportCase => ({
    reference, category: 'outside-license', status, receivedAt: at, dueAt: at, overdue: false, explanation: 'x', urls: [], files: [],
    reporter: { role: 'talent', name: 'R', email: 'r@people.example', signature: 'R' }, match: { verdict: 'ours', licenseId: 'lic_y', talentName: 'Maya', licensedAt: at, how: 'metadata' },
    hidden: false, decisions, history: [],
  });
  const SAMPLES = ['/talent/maya-1.jpg', '/talent/maya-2.jpg'];
  const partiesDeps = (store: ReturnType<typeof memoryStore>, published: Array<[string, object]>) => ({
    store,
    licenses: { getLicense: async (id: string) => ({ id, accountId: 'client-sub', talentId: 'maya-chen' }) as never },
    talents: { get: async (id: string) => (id === 'maya-chen' ? ({ id, samples: SAMPLES } as never) : undefined) },
    files: { getUrl: async () => 'u' },
    publish: async (t: string, d: object) => void published.push([t, d]),
  });
  const reviewer = { sub: 'rev-sub', email: 'reviewer@humanly.local' };

  it("a suspension names the license's client account and the reviewer in Report.Decided", async () => {
    const store = memoryStore();
    const published: Array<[string, object]> = [];
    store.cases.set('RPT-BBBBBB', openCase('RPT-BBBBBB'));
    await decideReport(partiesDeps(store, published), 'RPT-BBBBBB', { action: 'suspend-client', reasons: 'Repeated misuse' }, reviewer);
    expect(published).toEqual([
      ['Report.Decided', expect.objectContaining({ action: 'suspend-client', licenseId: 'lic_y', clientAccountId: 'client-sub', decidedBy: reviewer })],
    ]);
  });

  it("a sample's removal must name one of the matched talent's current samples (400 naming sampleUrl), and is announced with it", async () => {
    const store = memoryStore();
    const published: Array<[string, object]> = [];
    store.cases.set('RPT-CCCCCC', openCase('RPT-CCCCCC'));
    const deps = partiesDeps(store, published);
    expect(ReportDecisionRequest.safeParse({ action: 'remove-sample', reasons: 'The sample is misused' }).error?.issues[0]).toMatchObject({ path: ['sampleUrl'] });
    await expect(decideReport(deps, 'RPT-CCCCCC', { action: 'remove-sample', reasons: 'x', sampleUrl: '/talent/other.jpg' }, reviewer)).rejects.toMatchObject({
      status: 400,
      fields: { sampleUrl: SAMPLE_NOT_FOUND_MESSAGE },
    });
    expect(store.cases.get('RPT-CCCCCC')!.status).toBe('open');
    expect(published).toEqual([]);
    const decided = await decideReport(deps, 'RPT-CCCCCC', { action: 'remove-sample', reasons: 'x', sampleUrl: SAMPLES[1] }, reviewer);
    expect(decided.decisions).toEqual([expect.objectContaining({ action: 'remove-sample', sampleUrl: SAMPLES[1] })]);
    expect(published).toEqual([['Report.Decided', expect.objectContaining({ action: 'remove-sample', talentId: 'maya-chen', sampleUrl: SAMPLES[1] })]]);
  });

  it('a dismissal after an appeal of anything but a revocation reinstates nothing', async () => {
    const store = memoryStore();
    const published: Array<[string, object]> = [];
    store.cases.set('RPT-DDDDDD', openCase('RPT-DDDDDD', [{ action: 'suspend-client', reasons: 'x', by: 'first@humanly.local', at }], 'appealed'));
    await decideReport(partiesDeps(store, published), 'RPT-DDDDDD', { action: 'dismiss', reasons: 'Upheld' }, reviewer);
    expect(published.map(([t]) => t)).toEqual(['Report.Decided']);
  });
});

describe('the overdue check', () => {
  it('flags a waiting case past its due time once and counts every late one', async () => {
    const store = memoryStore();
    const base = { category: 'intimate' as const, receivedAt: '2026-11-27T00:00:00.000Z', overdue: false, explanation: 'x', urls: [], files: [], reporter: { role: 'talent' as const, name: 'R', email: 'r@x.example', signature: 'R' }, match: { verdict: 'not-ours' as const }, hidden: false, decisions: [], history: [] };
    store.cases.set('RPT-BBBBBB', { ...base, reference: 'RPT-BBBBBB', status: 'open', dueAt: '2026-11-29T00:00:00.000Z' });
    store.cases.set('RPT-CCCCCC', { ...base, reference: 'RPT-CCCCCC', status: 'open', dueAt: '2026-12-29T00:00:00.000Z' });
    store.cases.set('RPT-DDDDDD', { ...base, reference: 'RPT-DDDDDD', status: 'decided', dueAt: '2026-11-28T00:00:00.000Z' });
    const now = () => new Date('2026-11-29T01:00:00Z');
    expect(await checkOverdue({ store, now })).toEqual({ overdue: 1, flagged: 1 });
    // Every run counts the late cases as the ReportsOverdue metric its alarm watches (events/metrics.ts).
    let answer: unknown;
    const written = await metricsWritten(async () => void (answer = await checkOverdue({ store, now })));
    expect(answer).toEqual({ overdue: 1, flagged: 0 });
    expect(written.map((m) => [m.name, m.value, m.dimensions])).toEqual([[FAILURE_METRICS.reportsOverdue, 1, [[]]]]);
    expect(store.cases.get('RPT-BBBBBB')!.history).toEqual([{ at: '2026-11-29T01:00:00.000Z', what: 'Overdue' }]);
    // None late: a count of zero, so the alarm clears.
    store.cases.delete('RPT-BBBBBB');
    expect((await metricsWritten(() => checkOverdue({ store, now }))).map((m) => [m.name, m.value])).toEqual([[FAILURE_METRICS.reportsOverdue, 0]]);
  });
});

describe("the console dashboard's reports figures", () => {
  it('counts the cases waiting, those past their due time (flagged or not yet) and the intimate ones', async () => {
    const at = '2026-11-27T00:00:00.000Z';
    const base = { receivedAt: at, overdue: false, explanation: 'x', urls: [], files: [], reporter: { role: 'talent' as const, name: 'R', email: 'r@x.example', signature: 'R' }, match: { verdict: 'not-ours' as const }, hidden: false, decisions: [], history: [] };
    const cases: ReportCase[] = [
      { ...base, reference: 'RPT-AAAAAA', category: 'intimate', status: 'open', dueAt: '2026-11-29T00:00:00.000Z', overdue: true },
      { ...base, reference: 'RPT-BBBBBB', category: 'outside-license', status: 'appealed', dueAt: '2026-11-28T00:00:00.000Z' },
      { ...base, reference: 'RPT-CCCCCC', category: 'intimate', status: 'open', dueAt: '2026-12-29T00:00:00.000Z' },
      { ...base, reference: 'RPT-DDDDDD', category: 'intimate', status: 'decided', dueAt: '2026-11-20T00:00:00.000Z', overdue: true },
      { ...base, reference: 'RPT-EEEEEE', category: 'other', status: 'closed', dueAt: '2026-11-20T00:00:00.000Z' },
    ];
    const zero = async () => 0;
    const deps = {
      waitlist: { count: zero, countFailedWelcomes: zero },
      waitlistCapacity: 200,
      applications: { foundingSpotsTaken: zero, listApplicationStatuses: async () => [] },
      messages: { countFailedEmails: zero },
      generations: { countByStatus: zero },
      royalties: { listStatementsOfMonth: async () => [] },
      reports: { listCases: async () => cases },
      now: () => new Date('2026-11-29T01:00:00Z'),
    } as unknown as StatsDeps;
    expect((await adminStats(deps)).reports).toEqual({ waiting: 3, overdue: 2, intimateWaiting: 2 });
    expect((await adminStats({ ...deps, reports: { listCases: async () => [] } })).reports).toEqual({ waiting: 0, overdue: 0, intimateWaiting: 0 });
  });
});

describe('emails and texts', () => {
  it('escape what people typed and name the appeal', () => {
    const statement = clientStatementEmail({ reference: 'RPT-AAAAAA', action: 'revoke-license', licenseId: 'lic_x', reasons: '<script>x</script>', siteUrl: 'https://humanly.example/', afterAppeal: false });
    expect(statement.html).not.toContain('<script>');
    expect(statement.text).toContain('https://humanly.example/report/appeal/RPT-AAAAAA');
    expect(reportReceivedEmail({ reference: 'RPT-AAAAAA', category: 'intimate', dueAt: '2026-12-01T10:00:00.000Z' }).subject).toContain('RPT-AAAAAA');
    const notice = takedownNotice({ talentName: 'Maya Chen', url: 'https://other.example/x.jpg', date: '2026-11-29', intimate: true });
    expect(notice).toContain('Article 16');
    expect(notice).toContain('TAKE IT DOWN');
    expect(notice).toContain('https://other.example/x.jpg');
  });

  it('knows a delivered image by its key', () => {
    expect(licenseOfKey(`generations/acc/gen/lic_${'a'.repeat(22)}.png`)).toBe(`lic_${'a'.repeat(22)}`);
    expect(licenseOfKey(`generations/acc/gen/lic_${'a'.repeat(22)}.thumb.webp`)).toBeUndefined();
    expect(licenseOfKey('elsewhere/x.png')).toBeUndefined();
  });
});
