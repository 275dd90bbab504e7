// The client's view of a decision about their license (functions/reports/routes/get-report-decision):
// the statement of reasons goes to the client of the license alone; anyone else, a case without a
// decision and a missing case answer the same 404, so the answer never says whether a case exists.
import { REPORT_NOT_FOUND_MESSAGE } from '../../../events/report-values';
import { ClientReportDecision } from '../../../events/reports';
import { clientReportDecision, type ClientDecisionDeps } from '../../../functions/reports/routes/get-report-decision/service';
import type { ReportCase } from '../../../functions/reports/store';
import type { AccountCaller } from '../../../functions/shared/auth';

const decided: ReportCase = {
  reference: 'RPT-ABC234',
  category: 'outside-license',
  status: 'decided',
  receivedAt: '2026-11-01T09:00:00.000Z',
  dueAt: '2026-11-08T09:00:00.000Z',
  overdue: false,
  explanation: 'Used on a billboard',
  urls: ['https://billboards.example/a.jpg'],
  files: [],
  reporter: { role: 'someone-else', name: 'Rosa', email: 'rosa@people.example', signature: 'Rosa' },
  match: { verdict: 'ours', licenseId: 'lic_1', talentName: 'Maya Chen', licensedAt: '2026-10-30T10:00:00.000Z', how: 'metadata' },
  hidden: false,
  decisions: [{ action: 'revoke-license', reasons: 'The billboard is outside the commercial license.', by: 'reviewer@humanly.example', at: '2026-11-03T10:00:00.000Z' }],
  history: [],
};

const caller = (sub: string): AccountCaller => ({ sub, email: `${sub}@people.example`, role: 'client', emailVerified: true });

function deps(c: ReportCase | undefined): ClientDecisionDeps {
  return {
    store: { getCase: async (reference) => (c && c.reference === reference ? structuredClone(c) : undefined) },
    licenses: { getLicense: async (id) => (id === 'lic_1' ? ({ id: 'lic_1', accountId: 'client-1' } as Awaited<ReturnType<ClientDecisionDeps['licenses']['getLicense']>>) : undefined) },
    accounts: {
      get: async (id) => ({ id, email: `${id}@people.example`, role: 'client' }) as unknown as Awaited<ReturnType<ClientDecisionDeps['accounts']['get']>>,
      create: async () => {
        throw new Error('every caller here has an account');
      },
    },
  };
}

describe('clientReportDecision', () => {
  it("gives the license's client the decision, its public reason and the reviewer's statement, appealable once", async () => {
    const answer = await clientReportDecision(deps(decided), caller('client-1'), 'RPT-ABC234');
    expect(ClientReportDecision.parse(answer)).toEqual({
      reference: 'RPT-ABC234',
      licenseId: 'lic_1',
      status: 'decided',
      action: 'revoke-license',
      decidedAt: '2026-11-03T10:00:00.000Z',
      publicReason: 'the image was used outside its license',
      reasons: 'The billboard is outside the commercial license.',
      canAppeal: true,
    });
    expect(JSON.stringify(answer)).not.toContain('reviewer@humanly.example');
  });

  it('says when the decision was appealed, and that it cannot be appealed again', async () => {
    const appealed: ReportCase = { ...decided, status: 'appealed', appeal: { statement: 'It was in the license', at: '2026-11-04T08:00:00.000Z', accountId: 'client-1' } };
    expect(await clientReportDecision(deps(appealed), caller('client-1'), 'RPT-ABC234')).toMatchObject({ status: 'appealed', canAppeal: false, appealedAt: '2026-11-04T08:00:00.000Z' });
    const dismissed: ReportCase = { ...decided, decisions: [{ ...decided.decisions[0]!, action: 'dismiss' }] };
    expect(await clientReportDecision(deps(dismissed), caller('client-1'), 'RPT-ABC234')).toMatchObject({ action: 'dismiss', canAppeal: false, publicReason: 'the report was not upheld' });
  });

  it('answers the same 404 to a stranger, for a case without a decision, a missing case and a malformed reference', async () => {
    const notFound = { status: 404, message: REPORT_NOT_FOUND_MESSAGE };
    await expect(clientReportDecision(deps(decided), caller('stranger'), 'RPT-ABC234')).rejects.toMatchObject(notFound);
    await expect(clientReportDecision(deps({ ...decided, status: 'open', decisions: [] }), caller('client-1'), 'RPT-ABC234')).rejects.toMatchObject(notFound);
    await expect(clientReportDecision(deps({ ...decided, match: { verdict: 'not-ours' } }), caller('client-1'), 'RPT-ABC234')).rejects.toMatchObject(notFound);
    await expect(clientReportDecision(deps(undefined), caller('client-1'), 'RPT-ZZZZZZ')).rejects.toMatchObject(notFound);
    await expect(clientReportDecision(deps(decided), caller('client-1'), 'nope')).rejects.toMatchObject(notFound);
  });
});
