// The generation wing's consumer of the reports' outcomes (decision 058): an upheld appeal against
// a revocation reinstates the license, through License.Reinstated only.
import type { ReportDecidedV1 } from '../../../events/reports';
import { reinstateReported, settleReported, type OutcomeStore } from '../../../functions/generation/triggers/report-outcomes/service';

function fakeStore() {
  const licenses = new Map<string, { revokedBy?: string; withheldBy?: string }>([['lic_x', { revokedBy: 'RPT-AAAAAA' }]]);
  const store: OutcomeStore = {
    withholdLicense: async () => true,
    revokeLicense: async () => true,
    releaseLicense: async (id, reference) => {
      const l = licenses.get(id);
      if (l?.withheldBy !== reference) return false;
      delete l.withheldBy;
      return true;
    },
    reinstateLicense: async (id, reference) => {
      const l = licenses.get(id);
      if (l?.revokedBy !== reference) return false;
      delete l.revokedBy;
      return true;
    },
  };
  return { store, licenses };
}

describe('an appeal upheld against a revocation', () => {
  it('License.Reinstated takes back the revocation its case made, once', async () => {
    const { store, licenses } = fakeStore();
    const reinstated = { version: 1 as const, licenseId: 'lic_x', reference: 'RPT-AAAAAA', reinstatedAt: '2026-11-30T10:00:00.000Z' };
    expect(await reinstateReported(store, { ...reinstated, reference: 'RPT-OTHERS' })).toBe('skipped');
    expect(await reinstateReported(store, reinstated)).toBe('reinstated');
    expect(await reinstateReported(store, reinstated)).toBe('skipped');
    expect(licenses.get('lic_x')!.revokedBy).toBeUndefined();
  });

  it('Report.Decided alone does not reinstate a revoked license', async () => {
    const { store, licenses } = fakeStore();
    const decided: ReportDecidedV1 = { version: 1, reference: 'RPT-AAAAAA', action: 'dismiss', decidedAt: '2026-11-30T10:00:00.000Z', afterAppeal: true, licenseId: 'lic_x' };
    expect(await settleReported(store, decided)).toBe('skipped');
    expect(licenses.get('lic_x')!.revokedBy).toBe('RPT-AAAAAA');
  });
});
