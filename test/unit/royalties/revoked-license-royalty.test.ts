// The royalty of a license revoked for the client's breach (functions/royalties/triggers/
// revoked-license-royalty, docs/decisions/061): taken back once, with the record a refund writes,
// so the next close takes it off the statement; a revocation that is not the client's breach keeps
// it. Reinstated on appeal (reinstated-license-royalty), it is given back once, by a second
// record. Over an in-memory store with the table's once-per-license conditions.
import type { LicenseReinstatedV1, LicenseRevokedV1 } from '../../../events/reports';
import { buildStatement, takenBackShares } from '../../../functions/royalties/arithmetic';
import { statementCsv } from '../../../functions/royalties/statement-views';
import type { StoredGivenBack, StoredTakenBack } from '../../../functions/royalties/store';
import { giveBackReinstatedRoyalty, type ReinstatementRoyaltyStore } from '../../../functions/royalties/triggers/reinstated-license-royalty/service';
import { takeBackRevokedRoyalty, type RevocationRoyaltyStore } from '../../../functions/royalties/triggers/revoked-license-royalty/service';

function memory() {
  const records = new Map<string, StoredTakenBack>();
  const licenses: Record<string, { talentId: string; accountId: string; issuedAt: string }> = {
    lic_1: { talentId: 'maya-chen', accountId: 'acct-1', issuedAt: '2026-10-30T23:59:00.000Z' },
  };
  const given = new Map<string, StoredGivenBack>();
  const store: RevocationRoyaltyStore & ReinstatementRoyaltyStore = {
    getTakenBack: async (talentId, licenseId) => structuredClone(records.get(`${talentId}|${licenseId}`)),
    putGivenBack: async (item) => {
      const key = `${item.talentId}|${item.licenseId}`;
      if (given.has(key)) return false;
      given.set(key, structuredClone(item));
      return true;
    },
    licenseOf: async (id) => licenses[id],
    putTakenBack: async (item) => {
      const key = `${item.talentId}|${item.licenseId}`;
      if (records.has(key)) return false;
      records.set(key, structuredClone(item));
      return true;
    },
  };
  return { store, records, given };
}

const revoked = (over: Partial<LicenseRevokedV1> = {}): LicenseRevokedV1 => ({
  version: 1,
  licenseId: 'lic_1',
  reference: 'RPT-ABC234',
  revokedAt: '2026-11-12T10:00:00.000Z',
  reason: 'Used outside the license',
  clientBreach: true,
  ...over,
});

describe('takeBackRevokedRoyalty', () => {
  it("takes a breached license's royalty back once, however often the event comes", async () => {
    const m = memory();
    expect(await takeBackRevokedRoyalty(m.store, revoked())).toBe('taken-back');
    expect(await takeBackRevokedRoyalty(m.store, revoked())).toBe('already');
    expect([...m.records.values()]).toEqual([
      {
        talentId: 'maya-chen',
        licenseId: 'lic_1',
        accrualMonth: '2026-10',
        at: '2026-11-12T10:00:00.000Z',
        reason: 'Royalty taken back: license lic_1 revoked after report RPT-ABC234',
        key: 'report:RPT-ABC234',
        accountId: 'acct-1',
      },
    ]);
  });

  it('keeps the royalty when the revocation is not the client’s breach', async () => {
    const m = memory();
    expect(await takeBackRevokedRoyalty(m.store, revoked({ clientBreach: false }))).toBe('kept');
    expect(m.records.size).toBe(0);
  });

  it('a license a refund already took back is not taken twice', async () => {
    const m = memory();
    await m.store.putTakenBack({ talentId: 'maya-chen', licenseId: 'lic_1', accrualMonth: '2026-10', at: '2026-11-02T00:00:00.000Z', reason: "The client's payment was refunded", key: 'refund:ch_1:400', accountId: 'acct-1' });
    expect(await takeBackRevokedRoyalty(m.store, revoked())).toBe('already');
    expect([...m.records.values()].map((r) => r.key)).toEqual(['refund:ch_1:400']);
  });

  it('writes nothing for a license that does not exist', async () => {
    const m = memory();
    expect(await takeBackRevokedRoyalty(m.store, revoked({ licenseId: 'lic_gone' }))).toBe('no-license');
    expect(m.records.size).toBe(0);
  });
});

const reinstated = (over: Partial<LicenseReinstatedV1> = {}): LicenseReinstatedV1 => ({ version: 1, licenseId: 'lic_1', reference: 'RPT-ABC234', reinstatedAt: '2026-11-20T10:00:00.000Z', ...over });

describe('giveBackReinstatedRoyalty', () => {
  it('gives back the royalty its revocation took back, once, with a second record', async () => {
    const m = memory();
    await takeBackRevokedRoyalty(m.store, revoked());
    expect(await giveBackReinstatedRoyalty(m.store, reinstated())).toBe('given-back');
    expect(await giveBackReinstatedRoyalty(m.store, reinstated())).toBe('already');
    expect([...m.given.values()]).toEqual([
      { talentId: 'maya-chen', licenseId: 'lic_1', at: '2026-11-20T10:00:00.000Z', reason: 'Royalty given back: license lic_1 reinstated on appeal of report RPT-ABC234', key: 'report:RPT-ABC234' },
    ]);
    // The take-back stays as it was: the ledger only grows.
    expect([...m.records.values()].map((r) => r.key)).toEqual(['report:RPT-ABC234']);
  });

  it('gives nothing back when the revocation took nothing, or a refund took it', async () => {
    const m = memory();
    await takeBackRevokedRoyalty(m.store, revoked({ clientBreach: false }));
    expect(await giveBackReinstatedRoyalty(m.store, reinstated())).toBe('nothing-taken');
    await m.store.putTakenBack({ talentId: 'maya-chen', licenseId: 'lic_1', accrualMonth: '2026-10', at: '2026-11-02T00:00:00.000Z', reason: "The client's payment was refunded", key: 'refund:ch_1:400', accountId: 'acct-1' });
    expect(await giveBackReinstatedRoyalty(m.store, reinstated())).toBe('nothing-taken');
    expect(await giveBackReinstatedRoyalty(m.store, reinstated({ licenseId: 'lic_gone' }))).toBe('no-license');
    expect(m.given.size).toBe(0);
  });
});

describe('a statement with royalties given back', () => {
  const line = { licenseId: 'lic_9', generationId: 'gen_9', at: '2026-12-03T10:00:00.000Z', month: '2026-12', creditValueMicros: 1_000_000, royaltyPlan: 'founding-35' as const };

  it('adds them to what it pays, beside what it takes back', () => {
    const { totals } = buildStatement([line], 0, 0, [{ royaltyMicros: 100_000 }], [{ royaltyMicros: 60_000 }]);
    // 350,000 - 100,000 + 60,000 = 310,000 -> 31 cents.
    expect(totals).toMatchObject({ royaltyCents: 31, carriedOutMicros: 0, takenBack: { appliedMicros: 100_000 }, givenBack: { licenses: 1, royaltyMicros: 60_000 } });
    expect(buildStatement([line], 0, 0).totals).not.toHaveProperty('givenBack');
  });

  it('shares what a statement took back among its take-backs in order, so a give-back never pays what Humanly absorbed', () => {
    const taken = [
      { licenseId: 'lic_b', at: '2026-12-02T00:00:00.000Z', royaltyMicros: 50_000 },
      { licenseId: 'lic_a', at: '2026-12-01T00:00:00.000Z', royaltyMicros: 70_000 },
      { licenseId: 'lic_c', at: '2026-12-02T00:00:00.000Z', royaltyMicros: 40_000 },
    ];
    expect(Object.fromEntries(takenBackShares(taken, 100_000))).toEqual({ lic_a: 70_000, lic_b: 30_000, lic_c: 0 });
    expect(Object.fromEntries(takenBackShares(taken, 1_000_000))).toEqual({ lic_a: 70_000, lic_b: 50_000, lic_c: 40_000 });
  });

  it('lists each as a `given back` row of the CSV', () => {
    const { lines, totals } = buildStatement([line], 0, 0, [], [{ royaltyMicros: 60_000 }]);
    const csv = statementCsv({
      lines,
      totals,
      takenBack: [],
      givenBack: [{ licenseId: 'lic_1', at: '2026-12-20T09:00:00.000Z', statementMonth: '2026-11', royaltyMicros: 60_000, reason: 'Royalty given back: license lic_1 reinstated on appeal of report RPT-ABC234' }],
    });
    expect(csv).toContain('"given back","2026-12-20","lic_1","Royalty given back: license lic_1 reinstated on appeal of report RPT-ABC234","","","0.060000"');
  });
});
