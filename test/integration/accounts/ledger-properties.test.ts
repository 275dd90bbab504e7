// Properties of the credit ledger on DynamoDB Local (decisions 036, 043): for any sequence of
// grants (with and without expiry, with and without a source), reserves, commits, releases,
// take-backs, sweeps and clock moves, the balance is the sum of its unexpired lots, never below
// zero, and every commit consumes the oldest credit its generation holds: the value an accrual
// uses. A take-back claims its source's reserved credits and counts expired ones apart from spent
// ones (decision 049). The ledger is checked against a model of single credits in a queue, oldest first.
import { randomUUID } from 'node:crypto';
import * as fc from 'fast-check';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { PROMOTIONAL_LOT, TESTING_LOT, planLot, type CreditLot } from '../../../events/plans';
import { accountKeys } from '../../../functions/accounts/keys';
import { accountStore } from '../../../functions/accounts/store';
import { creditLedger, InsufficientCreditsError, type LotCredits } from '../../../functions/accounts/credits';
import { documentClient, useTwin } from '../../support/twin';
import { fileMarker } from '../../support/marker';

jest.setTimeout(600_000);
const twin = useTwin();
const run = fileMarker('lp');

const START = Date.parse('2027-01-10T00:00:00.000Z');
const GENERATIONS = ['g0', 'g1', 'g2'];
const SOURCES = ['checkout:cs_a', 'invoice:in_b'];
const KINDS: CreditLot[] = [PROMOTIONAL_LOT, planLot('starter'), TESTING_LOT];

type Op =
  | { op: 'grant'; credits: number; kind: number; expiresInHours: number | null; source: number | null }
  | { op: 'reserve'; gen: number; credits: number }
  | { op: 'commitOne'; gen: number }
  | { op: 'release'; gen: number; credits: number }
  | { op: 'takeBack'; source: number; credits: number }
  | { op: 'clock'; hours: number }
  | { op: 'sweep' };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    op: fc.constant('grant' as const),
    credits: fc.integer({ min: 1, max: 5 }),
    kind: fc.integer({ min: 0, max: KINDS.length - 1 }),
    // Some grants already expired when granted (a late event), most later, some never.
    expiresInHours: fc.option(fc.integer({ min: -24, max: 96 }), { nil: null }),
    source: fc.option(fc.integer({ min: 0, max: SOURCES.length - 1 }), { nil: null }),
  }),
  fc.record({ op: fc.constant('reserve' as const), gen: fc.integer({ min: 0, max: 2 }), credits: fc.integer({ min: 1, max: 6 }) }),
  fc.record({ op: fc.constant('commitOne' as const), gen: fc.integer({ min: 0, max: 2 }) }),
  fc.record({ op: fc.constant('release' as const), gen: fc.integer({ min: 0, max: 2 }), credits: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ op: fc.constant('takeBack' as const), source: fc.integer({ min: 0, max: SOURCES.length - 1 }), credits: fc.integer({ min: 1, max: 6 }) }),
  fc.record({ op: fc.constant('clock' as const), hours: fc.integer({ min: 1, max: 72 }) }),
  fc.record({ op: fc.constant('sweep' as const) }),
);

/** One credit of the model: what its lot says. */
type Unit = CreditLot;
const unitOf = (l: CreditLot): Unit => ({
  valueMicros: l.valueMicros,
  kind: l.kind,
  ...(l.noRoyalty ? { noRoyalty: l.noRoyalty } : {}),
  ...(l.source ? { source: l.source } : {}),
  ...(l.expiresAt ? { expiresAt: l.expiresAt } : {}),
});
const units = (lots: LotCredits[]): Unit[] => lots.flatMap((l) => Array.from({ length: l.credits }, () => unitOf(l)));
const expired = (u: Unit, at: number) => u.expiresAt !== undefined && Date.parse(u.expiresAt) <= at;

describe('credit ledger properties', () => {
  it('the balance is the sum of its unexpired lots, never negative, and each commit consumes the oldest credit held (40 runs)', async () => {
    const doc = documentClient(twin());
    const table = twin().physicalName('AccountsTable');
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 14 }), async (ops) => {
        let clock = START;
        const now = () => new Date(clock);
        const ledger = creditLedger(doc, table, now);
        const id = randomUUID();
        runs += 1;
        await accountStore(doc, table, now).create({ id, email: `props.${runs}.${run}@people.example`, full_name: 'Property Test', role: 'client' });

        // The model: the balance's credits oldest first; each generation's held credits oldest
        // first, unclaimed and claimed by a take-back (decision 049); the generations holding
        // credits in the order they began to; each source's credits that expired off the balance,
        // and how many of those take-backs counted.
        let balance: Unit[] = units(await ledger.lots(id));
        const held: Unit[][] = GENERATIONS.map(() => []);
        const claimed: Unit[][] = GENERATIONS.map(() => []);
        let holding: number[] = [];
        const expiredOf = new Map<string, number>();
        const countedOf = new Map<string, number>();
        const live = () =>
          (balance = balance.filter((u) => {
            if (!expired(u, clock)) return true;
            if (u.source) expiredOf.set(u.source, (expiredOf.get(u.source) ?? 0) + 1);
            return false;
          }));
        const stillHolding = (g: number) => {
          if (!held[g].length && !claimed[g].length) holding = holding.filter((x) => x !== g);
        };

        for (const [i, step] of ops.entries()) {
          const key = `k${i}`;
          if (step.op === 'grant') {
            const lot: CreditLot = {
              ...KINDS[step.kind],
              ...(step.source !== null ? { source: SOURCES[step.source] } : {}),
              ...(step.expiresInHours !== null ? { expiresAt: new Date(clock + step.expiresInHours * 3_600_000).toISOString() } : {}),
            };
            await ledger.grant(id, { credits: step.credits, key, reason: 'Grant', lot });
            live();
            balance.push(...Array.from({ length: step.credits }, () => unitOf(lot)));
            live();
          } else if (step.op === 'reserve') {
            live();
            const generationId = GENERATIONS[step.gen];
            if (balance.length < step.credits) {
              await expect(ledger.reserve(id, { credits: step.credits, key, generationId, reason: 'Images' })).rejects.toBeInstanceOf(InsufficientCreditsError);
            } else {
              const result = await ledger.reserve(id, { credits: step.credits, key, generationId, reason: 'Images' });
              const taken = balance.splice(0, step.credits);
              expect(units(result.lots)).toEqual(taken);
              held[step.gen].push(...taken);
              if (!holding.includes(step.gen)) holding.push(step.gen);
            }
          } else if (step.op === 'commitOne') {
            const generationId = GENERATIONS[step.gen];
            if (!held[step.gen].length && !claimed[step.gen].length) {
              await expect(ledger.commitOne(id, { key, generationId, reason: 'Image' }, () => [])).rejects.toMatchObject({ status: 409 });
            } else {
              const result = await ledger.commitOne(id, { key, generationId, reason: 'Image' }, () => []);
              // The credit an accrual is valued on: the oldest unclaimed one the generation holds,
              // expired or not; a claimed (refunded) one only when nothing else is left.
              expect(result.credit && unitOf(result.credit)).toEqual(held[step.gen].length ? held[step.gen].shift() : claimed[step.gen].shift());
              stillHolding(step.gen);
            }
            live();
          } else if (step.op === 'release') {
            const generationId = GENERATIONS[step.gen];
            if (held[step.gen].length + claimed[step.gen].length < step.credits) {
              await expect(ledger.release(id, { credits: step.credits, key, generationId, reason: 'Not delivered' })).rejects.toMatchObject({ status: 409 });
            } else {
              await ledger.release(id, { credits: step.credits, key, generationId, reason: 'Not delivered' });
              live();
              // Claimed credits are dropped first, never returned; the rest come back first on the balance.
              const dropped = claimed[step.gen].splice(0, step.credits).length;
              balance.unshift(...held[step.gen].splice(0, step.credits - dropped));
              stillHolding(step.gen);
            }
            live();
          } else if (step.op === 'takeBack') {
            live();
            const source = SOURCES[step.source];
            const result = await ledger.takeBack(id, { key, source, credits: step.credits, reason: 'Refund' });
            let left = step.credits;
            balance = balance.filter((u) => !(u.source === source && left > 0 && left-- > 0));
            const fromBalance = step.credits - left;
            // Then the source's credits the generations hold, in the order they began to hold them.
            let fromHeld = 0;
            for (const g of holding) {
              held[g] = held[g].filter((u) => {
                if (u.source !== source || left <= 0) return true;
                left -= 1;
                fromHeld += 1;
                claimed[g].push(u);
                return false;
              });
            }
            // Then those that expired unspent and no take-back counted yet: not spent, no shortfall.
            const expiredCounted = Math.min(left, (expiredOf.get(source) ?? 0) - (countedOf.get(source) ?? 0));
            countedOf.set(source, (countedOf.get(source) ?? 0) + expiredCounted);
            left -= expiredCounted;
            expect({ takenBack: result.takenBack, reserved: result.reserved, expired: result.expired, shortfall: result.shortfall }).toEqual({
              takenBack: fromBalance + fromHeld,
              reserved: fromHeld,
              expired: expiredCounted,
              shortfall: left,
            });
            expect(result.entry).toMatchObject({ kind: 'take-back', credits: 0 - fromBalance });
            // Once per key: a repeat answers the first result and changes nothing.
            expect(await ledger.takeBack(id, { key, source, credits: step.credits, reason: 'Refund' })).toMatchObject({ replayed: true, takenBack: result.takenBack, entry: result.entry });
          } else if (step.op === 'clock') {
            clock += step.hours * 3_600_000;
          } else {
            // What the stored item still holds that is due: readers already leave it out, the
            // sweep writes its expire entry.
            const stored = (await doc.send(new GetCommand({ TableName: table, Key: accountKeys.balance(id), ConsistentRead: true }))).Item!;
            const due = units(stored.lots as LotCredits[]).filter((u) => expired(u, clock)).length;
            const result = await ledger.expire(id);
            live();
            expect(result.expired.reduce((n, l) => n + l.credits, 0)).toBe(due);
          }

          // After every step: the spendable balance is the sum of its lots, none of them expired,
          // never negative, and the same credits, in the same order, as the model's.
          live();
          const lots = await ledger.lots(id);
          expect(units(lots)).toEqual(balance);
          expect(lots.every((l) => !expired(l, clock))).toBe(true);
          expect(await ledger.balance(id)).toBe(balance.length);
          // The stored item always equals its lots: expired lots leave it in the write that finds them.
          const item = (await doc.send(new GetCommand({ TableName: table, Key: accountKeys.balance(id), ConsistentRead: true }))).Item!;
          expect(item.credits).toBeGreaterThanOrEqual(0);
          expect((item.lots as LotCredits[]).reduce((n, l) => n + l.credits, 0)).toBe(item.credits);
        }

        // The entries explain the stored balance step by step, never below zero.
        const entries = (await ledger.entries(id, { limit: 100 })).entries.reverse();
        let sum = 0;
        for (const e of entries) {
          sum += e.credits;
          expect(e.balanceAfter).toBe(sum);
          expect(e.balanceAfter).toBeGreaterThanOrEqual(0);
        }
        const item = (await doc.send(new GetCommand({ TableName: table, Key: accountKeys.balance(id), ConsistentRead: true }))).Item!;
        expect(sum).toBe(item.credits);
      }),
      { numRuns: 40 },
    );
  });
});
