// The appeal page's view of the decision it appeals (web/src/pages/portal/appeal/decision-view.ts)
// and the reports' client reading it (`GET /reports/{reference}/decision`, checked against the
// contract).
import type { ClientReportDecision } from '../../../events/reports';
import { signedInReportApi } from '../../../web/src/lib/report-api';
import { appealState, decisionFacts } from '../../../web/src/pages/portal/appeal/decision-view';

const decision: ClientReportDecision = {
  reference: 'RPT-ABC234',
  licenseId: 'lic_1',
  status: 'decided',
  action: 'revoke-license',
  decidedAt: '2026-11-03T10:00:00.000Z',
  publicReason: 'the image was used outside its license',
  reasons: 'The billboard is outside the commercial license.',
  canAppeal: true,
};

describe('the appeal page’s decision', () => {
  it('says what was decided, when, on which license and the public reason', () => {
    expect(decisionFacts(decision, 'UTC')).toEqual([
      { term: 'Decision', value: 'Your license was revoked on Nov 3, 2026' },
      { term: 'License', value: 'lic_1', className: 'appeal-reference' },
      { term: 'Public reason', value: 'Because the image was used outside its license.' },
    ]);
  });

  it('says whether the decision can be appealed, was, or cannot be', () => {
    expect(appealState(decision, 'UTC')).toBe('You can appeal this decision once, below.');
    expect(appealState({ ...decision, status: 'appealed', canAppeal: false, appealedAt: '2026-11-04T08:00:00.000Z' }, 'UTC')).toBe(
      'You appealed on Nov 4, 2026: a different reviewer is deciding again.',
    );
    expect(appealState({ ...decision, status: 'closed', action: 'dismiss', canAppeal: false, appealedAt: '2026-11-04T08:00:00.000Z' }, 'UTC')).toContain('It is final.');
    expect(appealState({ ...decision, action: 'dismiss', canAppeal: false }, 'UTC')).toBe('Nothing was held against your license, so there is nothing to appeal.');
  });

  it('is read with the session’s token and checked against the contract', async () => {
    const calls: Array<{ url: string; init: RequestInit }> = [];
    const fetch = (async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(JSON.stringify(decision), { status: 200, headers: { 'content-type': 'application/json' } });
    }) as typeof globalThis.fetch;
    const api = signedInReportApi({ apiUrl: 'https://api.example.test', fetch, getIdToken: async () => 'token-1' });
    expect(await api.decision('RPT-ABC234')).toEqual(decision);
    expect(calls[0]!.url).toBe('https://api.example.test/reports/RPT-ABC234/decision');
    expect(JSON.stringify(calls[0]!.init.headers)).toContain('token-1');
  });
});
