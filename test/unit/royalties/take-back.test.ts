// Royalties taken back for a refund (functions/royalties/triggers/take-back-royalties): the most
// recent licenses paid from the purchase, as many as the spent credits refunded, each once ever;
// a repeated event takes nothing more, and a second refund of the same purchase takes others.
// Over an in-memory store with the table's conditions. The statement arithmetic of what is taken
// back (never below zero, the rest absorbed) is checked with the royalty function.
import type { PaymentsSpentCreditsRefundedV1 } from '../../../events/payment-events';
import { buildStatement } from '../../../functions/royalties/arithmetic';
import { statementCsv } from '../../../functions/royalties/statement-views';
import type { CreditUse, StoredTakenBack } from '../../../functions/royalties/store';
import { takeBackRoyalties, type TakeBackStore } from '../../../functions/royalties/triggers/take-back-royalties/service';

function memory(n: number) {
  const uses: CreditUse[] = Array.from({ length: n }, (_, i) => ({
    pk: 'CREDITS#acct-1#checkout:cs_1',
    sk: `LIC#2026-11-0${i + 1}T10:00:00.000Z#lic_${i}`,
    licenseId: `lic_${i}`,
    talentId: i % 2 ? 'jon-reyes' : 'maya-chen',
    month: '2026-11',
    at: `2026-11-0${i + 1}T10:00:00.000Z`,
  }));
  const records = new Map<string, StoredTakenBack>();
  let failPutsAfter = Infinity;
  const store: TakeBackStore = {
    creditUses: async () => structuredClone([...uses].sort((a, b) => (a.sk < b.sk ? 1 : -1))),
    markTakenBack: async (use, key, at) => {
      const u = uses.find((x) => x.sk === use.sk)!;
      if (u.takenBackBy && u.takenBackBy !== key) return false;
      Object.assign(u, { takenBackBy: key, takenBackAt: at });
      return true;
    },
    putTakenBack: async (item) => {
      if (failPutsAfter-- <= 0) throw new Error('DynamoDB is unreachable');
      if (records.has(`${item.talentId}|${item.licenseId}`)) return false;
      records.set(`${item.talentId}|${item.licenseId}`, structuredClone(item));
      return true;
    },
  };
  return { store, uses, records, failAfter: (k: number) => (failPutsAfter = k) };
}

const event = (credits: number, key = 'refund:ch_1:400'): PaymentsSpentCreditsRefundedV1 => ({
  version: 1,
  accountId: 'acct-1',
  source: 'checkout:cs_1',
  credits,
  key,
  reason: "The client's payment was refunded",
  at: '2026-12-04T09:00:00.000Z',
});

describe('takeBackRoyalties', () => {
  it('takes the most recent licenses of the purchase, once however often the event comes', async () => {
    const m = memory(5);
    expect(await takeBackRoyalties(m.store, event(2))).toEqual({ licenses: 2 });
    expect([...m.records.values()].map((r) => [r.licenseId, r.talentId, r.accrualMonth, r.key]).sort()).toEqual([
      ['lic_3', 'jon-reyes', '2026-11', 'refund:ch_1:400'],
      ['lic_4', 'maya-chen', '2026-11', 'refund:ch_1:400'],
    ]);
    expect(await takeBackRoyalties(m.store, event(2))).toEqual({ licenses: 2 });
    expect(m.records.size).toBe(2);
    // A second refund of the same purchase takes other licenses; more than there are takes what there is.
    expect(await takeBackRoyalties(m.store, event(9, 'refund:ch_1:2000'))).toEqual({ licenses: 3 });
    expect(m.records.size).toBe(5);
    expect(m.uses.filter((u) => u.takenBackBy === 'refund:ch_1:2000').map((u) => u.licenseId).sort()).toEqual(['lic_0', 'lic_1', 'lic_2']);
  });

  it('a run that stopped after marking licenses writes their records on the retry, and marks no more', async () => {
    const m = memory(4);
    m.failAfter(1);
    await expect(takeBackRoyalties(m.store, event(3))).rejects.toThrow('unreachable');
    expect(m.records.size).toBe(1);
    m.failAfter(Infinity);
    expect(await takeBackRoyalties(m.store, event(3))).toEqual({ licenses: 3 });
    expect([...m.records.keys()].map((k) => k.split('|')[1]).sort()).toEqual(['lic_1', 'lic_2', 'lic_3']);
    expect(m.uses.filter((u) => u.takenBackBy).length).toBe(3);
  });
});

describe('a statement with royalties taken back', () => {
  const line = (n: number, creditValueMicros: number) => ({
    licenseId: `lic_${n}`,
    generationId: `gen_${n}`,
    at: `2026-12-0${n}T10:00:00.000Z`,
    month: '2026-12',
    creditValueMicros,
    royaltyPlan: 'founding-35' as const,
  });

  it('takes them off what it pays, never below zero: the rest is absorbed, not carried', () => {
    // 35% of $1.00 = 350,000 + 4,000 carried in; 100,000 taken back -> 254,000: 25 cents, 4,000 carried.
    expect(buildStatement([line(1, 1_000_000)], 4_000, 0, [{ royaltyMicros: 100_000 }]).totals).toMatchObject({
      royaltyMicros: 350_000,
      royaltyCents: 25,
      carriedOutMicros: 4_000,
      takenBack: { licenses: 1, owedMicros: 100_000, appliedMicros: 100_000, absorbedMicros: 0 },
    });
    // 354,000 available, 500,000 owed: all of it taken, 146,000 absorbed, nothing paid or carried.
    expect(buildStatement([line(1, 1_000_000)], 4_000, 0, [{ royaltyMicros: 200_000 }, { royaltyMicros: 300_000 }]).totals).toMatchObject({
      royaltyCents: 0,
      carriedOutMicros: 0,
      takenBack: { licenses: 2, owedMicros: 500_000, appliedMicros: 354_000, absorbedMicros: 146_000 },
    });
    // Nothing earned and nothing carried: everything is absorbed.
    expect(buildStatement([], 0, 0, [{ royaltyMicros: 70_000 }]).totals).toMatchObject({ licenses: 0, royaltyCents: 0, takenBack: { appliedMicros: 0, absorbedMicros: 70_000 } });
    // Without any, the statement keeps the shape it always had.
    expect(buildStatement([line(1, 1_000_000)], 0, 0).totals).not.toHaveProperty('takenBack');
    expect(() => buildStatement([], 0, 0, [{ royaltyMicros: -1 }])).toThrow(RangeError);
  });

  it('lists each in the CSV, negative, with what was absorbed, and the CSV still adds up', () => {
    const takenBack = [
      { licenseId: 'lic_9', at: '2026-12-04T09:00:00.000Z', statementMonth: '2026-11', royaltyMicros: 300_000, reason: "The client's payment was refunded" },
      { licenseId: 'lic_8', at: '2026-12-05T09:00:00.000Z', statementMonth: '2026-11', royaltyMicros: 200_000, reason: "The client's payment was taken back in a dispute" },
    ];
    const built = buildStatement([line(1, 1_000_000)], 4_000, 0, takenBack);
    const rows = statementCsv({ ...built, takenBack }).replace(/^\uFEFF/, '').trim().split('\r\n').map((r) => r.split('","').map((c) => c.replace(/^"|"$/g, '')));
    const of = (row: string) => rows.filter((r) => r[0] === row);
    expect(of('taken back').map((r) => [r[1], r[2], r[3], r[6]])).toEqual([
      ['2026-12-04', 'lic_9', "The client's payment was refunded", '-0.300000'],
      ['2026-12-05', 'lic_8', "The client's payment was taken back in a dispute", '-0.200000'],
    ]);
    expect(of('taken back absorbed').map((r) => r[6])).toEqual(['0.146000']);
    const micros = (usd: string) => Math.round(Number(usd) * 1_000_000);
    const licenses = of('license').reduce((s, r) => s + micros(r[6]!), 0);
    const back = of('taken back').reduce((s, r) => s + micros(r[6]!), 0) + micros(of('taken back absorbed')[0]![6]!);
    expect(licenses + micros(of('carried in')[0]![6]!) + back).toBe(micros(of('paid')[0]![6]!) + micros(of('carried out')[0]![6]!));
  });
});
