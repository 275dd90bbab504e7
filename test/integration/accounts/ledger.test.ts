// The credit ledger on the twin's DynamoDB Local (decisions 021, 036): concurrent reserves never
// take a balance below zero, a key applies once, a generation's commits and releases never exceed
// what it reserved, and credits move by lot, oldest first, with the lots always adding up.
import { randomUUID } from 'node:crypto';
import * as fc from 'fast-check';
import { accountStore, SIGNUP_GRANT_KEY } from '../../../functions/accounts/store';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { PROMOTIONAL_LOT, TESTING_LOT, planCreditsExpireAt, planLot, type CreditLot } from '../../../events/plans';
import { accountKeys } from '../../../functions/accounts/keys';
import { creditLedger, InsufficientCreditsError, LinkedWriteRefusedError, type LotCredits } from '../../../functions/accounts/credits';
import { documentClient, useTwin } from '../../support/twin';

jest.setTimeout(240_000);
const twin = useTwin();

const stores = () => {
  const table = twin().physicalName('AccountsTable');
  const doc = documentClient(twin());
  return { accounts: accountStore(doc, table), ledger: creditLedger(doc, table) };
};

/** A new client account (10 starting credits) of this run's own. */
async function newClient(): Promise<string> {
  const id = randomUUID();
  const { created } = await stores().accounts.create({ id, email: `ledger.${id}@people.example`, full_name: 'Ledger Test', role: 'client' });
  expect(created).toBe(true);
  return id;
}

describe('credit ledger', () => {
  it('creates a client once: 10 starting credits as the first entry, a repeat changes nothing', async () => {
    const { accounts, ledger } = stores();
    const id = randomUUID();
    const input = { id, email: `Once.${id}@People.example`, full_name: 'Ada Once', role: 'client' as const };
    const [a, b, c] = await Promise.all([accounts.create(input), accounts.create(input), accounts.create(input)]);
    expect([a, b, c].filter((r) => r.created)).toHaveLength(1);
    expect(await ledger.balance(id)).toBe(10);
    const page = await ledger.entries(id, { limit: 10 });
    expect(page.entries).toEqual([expect.objectContaining({ kind: 'grant', credits: 10, balanceAfter: 10, reason: 'Free plan credits' })]);
    // The signup grant's key is taken: granting under it again is a replay, not 10 more credits.
    const replay = await ledger.grant(id, { credits: 10, key: SIGNUP_GRANT_KEY, reason: 'Free plan credits', lot: PROMOTIONAL_LOT });
    expect(replay).toMatchObject({ replayed: true, balance: 10 });
    expect(await ledger.balance(id)).toBe(10);
    expect((await accounts.findByEmail(`once.${id}@people.example`))?.id).toBe(id);
    expect(await accounts.get(id)).toMatchObject({ plan: 'free', role: 'client', disabled: false });
  });

  it('50 concurrent reserves of 1 credit on a balance of 10: exactly 10 succeed, the balance ends at 0', async () => {
    const { ledger } = stores();
    const id = await newClient();
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) => ledger.reserve(id, { credits: 1, key: `r-${i}`, generationId: `g-${i}`, reason: 'Image' })),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected');
    expect(ok).toHaveLength(10);
    for (const r of refused) {
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(InsufficientCreditsError);
      expect(((r as PromiseRejectedResult).reason as Error).message).toBe('Not enough credits: this needs 1 and your balance is 0.');
    }
    expect(await ledger.balance(id)).toBe(0);
    // Every entry's balanceAfter is exact: the ledger explains the balance step by step.
    const entries = (await ledger.entries(id, { limit: 100 })).entries.reverse();
    expect(entries).toHaveLength(11);
    let balance = 0;
    for (const e of entries) {
      balance += e.credits;
      expect(e.balanceAfter).toBe(balance);
      expect(e.balanceAfter).toBeGreaterThanOrEqual(0);
    }
  });

  it('replays of one key apply once, concurrently too; the same key for another change is refused 409', async () => {
    const { ledger } = stores();
    const id = await newClient();
    const change = { credits: 3, key: 'grant-once', reason: 'Welcome bonus', lot: PROMOTIONAL_LOT };
    const results = await Promise.all(Array.from({ length: 8 }, () => ledger.grant(id, change)));
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    expect(new Set(results.map((r) => r.entry.id)).size).toBe(1);
    expect(await ledger.balance(id)).toBe(13);
    await expect(ledger.grant(id, { ...change, credits: 4 })).rejects.toMatchObject({ status: 409, message: expect.stringMatching(/different credit change/) });
    await expect(ledger.reserve(id, { credits: 3, key: 'grant-once', generationId: 'g', reason: 'Image' })).rejects.toMatchObject({ status: 409 });
    expect(await ledger.balance(id)).toBe(13);
  });

  it('commit and release of a generation can never exceed its reservation (property, 15 runs)', async () => {
    const { ledger } = stores();
    const id = await newClient();
    await ledger.grant(id, { credits: 1000, key: 'topup', reason: 'Test credits', lot: TESTING_LOT });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.record({ kind: fc.constantFrom('commit' as const, 'release' as const), credits: fc.integer({ min: 1, max: 4 }) }), { minLength: 1, maxLength: 6 }),
        async (reserved, steps) => {
          const generationId = randomUUID();
          const before = await ledger.balance(id);
          await ledger.reserve(id, { credits: reserved, key: `${generationId}-reserve`, generationId, reason: 'Image' });
          // All steps at once: whatever order they land in, the reservation bounds them.
          const outcomes = await Promise.allSettled(
            steps.map((s, i) => ledger[s.kind](id, { credits: s.credits, key: `${generationId}-${i}`, generationId, reason: 'Image' })),
          );
          const applied = steps.filter((_, i) => outcomes[i].status === 'fulfilled');
          for (const [i, o] of outcomes.entries()) {
            if (o.status === 'rejected') expect((o.reason as { status?: number }).status).toBe(409);
            else expect(o.value.entry.generationId).toBe(generationId);
            void i;
          }
          const used = applied.reduce((n, s) => n + s.credits, 0);
          const released = applied.filter((s) => s.kind === 'release').reduce((n, s) => n + s.credits, 0);
          const state = await ledger.reservation(id, generationId);
          expect(used).toBeLessThanOrEqual(reserved);
          expect(state).toMatchObject({ reserved, open: reserved - used });
          expect(await ledger.balance(id)).toBe(before - reserved + released);
        },
      ),
      { numRuns: 15 },
    );
    // A commit for a generation that reserved nothing is refused.
    await expect(ledger.commit(id, { credits: 1, key: 'nothing', generationId: 'never-reserved', reason: 'Image' })).rejects.toMatchObject({
      status: 409,
      message: 'This generation has no reserved credits left to commit or release.',
    });
  });

  it('pages the ledger newest first with an opaque cursor', async () => {
    const { ledger } = stores();
    const id = await newClient();
    for (let i = 1; i <= 4; i++) await ledger.grant(id, { credits: i, key: `g${i}`, reason: `Grant ${i}`, lot: PROMOTIONAL_LOT });
    const first = await ledger.entries(id, { limit: 2 });
    expect(first.entries.map((e) => e.reason)).toEqual(['Grant 4', 'Grant 3']);
    const second = await ledger.entries(id, { limit: 2, cursor: first.nextCursor });
    expect(second.entries.map((e) => e.reason)).toEqual(['Grant 2', 'Grant 1']);
    const third = await ledger.entries(id, { limit: 2, cursor: second.nextCursor });
    expect(third).toEqual({ entries: [expect.objectContaining({ reason: 'Free plan credits' })] });
    await expect(ledger.entries(id, { limit: 2, cursor: 'bm90LWEtY3Vyc29y' })).rejects.toMatchObject({ status: 400 });
  });
});

describe('credit lots', () => {
  const lot = (credits: number, of: CreditLot): LotCredits => ({ credits, ...of });
  const total = (lots: LotCredits[]) => lots.reduce((n, l) => n + l.credits, 0);
  const STARTER = planLot('starter');

  it("the Free plan's credits are one promotional lot; reserves take the oldest first, a release puts them back first, a commit consumes them", async () => {
    const { ledger } = stores();
    const id = await newClient();
    // The sign-up's Free credits expire at the end of the following month (decision 043).
    const FREE: CreditLot = { ...PROMOTIONAL_LOT, expiresAt: planCreditsExpireAt(new Date()) };
    expect(await ledger.lots(id)).toEqual([lot(10, FREE)]);
    await ledger.grant(id, { credits: 5, key: 'starter', reason: 'Starter plan credits', lot: STARTER });
    expect(await ledger.lots(id)).toEqual([lot(10, FREE), lot(5, STARTER)]);

    const generationId = randomUUID();
    const reserved = await ledger.reserve(id, { credits: 12, key: `${generationId}-r`, generationId, reason: 'Images' });
    expect(reserved.lots).toEqual([lot(10, FREE), lot(2, STARTER)]);
    expect(await ledger.lots(id)).toEqual([lot(3, STARTER)]);
    expect(await ledger.reservedLots(id, generationId)).toEqual([lot(10, FREE), lot(2, STARTER)]);

    const released = await ledger.release(id, { credits: 3, key: `${generationId}-l`, generationId, reason: 'Not delivered' });
    expect(released.lots).toEqual([lot(3, FREE)]);
    expect(await ledger.lots(id)).toEqual([lot(3, FREE), lot(3, STARTER)]);
    const committed = await ledger.commit(id, { credits: 9, key: `${generationId}-c`, generationId, reason: 'Delivered' });
    expect(committed.lots).toEqual([lot(7, FREE), lot(2, STARTER)]);
    expect(await ledger.reservedLots(id, generationId)).toEqual([]);
    expect(await ledger.balance(id)).toBe(6);
    // The next generation spends the promotional credits given back before the Starter ones.
    const next = randomUUID();
    expect((await ledger.reserve(id, { credits: 4, key: `${next}-r`, generationId: next, reason: 'Images' })).lots).toEqual([lot(3, FREE), lot(1, STARTER)]);
  });

  it('concurrent reserves spend every lot once: the credits taken are exactly the credits granted, the balance ends at 0', async () => {
    const { ledger } = stores();
    const id = await newClient();
    await ledger.grant(id, { credits: 4, key: 'starter', reason: 'Starter plan credits', lot: STARTER });
    await ledger.grant(id, { credits: 2, key: 'testing', reason: 'QA', lot: TESTING_LOT });
    const results = await Promise.allSettled(
      Array.from({ length: 30 }, (_, i) => ledger.reserve(id, { credits: 1, key: `r-${i}`, generationId: `g-${i}`, reason: 'Image' })),
    );
    const taken = results.flatMap((r) => (r.status === 'fulfilled' ? r.value.lots : []));
    expect(taken).toHaveLength(16);
    expect(results.filter((r) => r.status === 'rejected').every((r) => (r as PromiseRejectedResult).reason instanceof InsufficientCreditsError)).toBe(true);
    const by = (kind: string) => total(taken.filter((l) => `${l.kind}/${l.valueMicros}/${l.noRoyalty ?? ''}` === kind));
    expect([by(`promotional/${PROMOTIONAL_LOT.valueMicros}/`), by(`paid/${STARTER.valueMicros}/`), by('promotional/0/testing-grant')]).toEqual([10, 4, 2]);
    expect(await ledger.balance(id)).toBe(0);
    expect(await ledger.lots(id)).toEqual([]);
  });

  it('a balance stored before lots is one lot of the plan and keeps working: it is spent as such, and lots are kept from then on', async () => {
    const { ledger } = stores();
    const id = randomUUID();
    const doc = documentClient(twin());
    const table = twin().physicalName('AccountsTable');
    // As the ledger wrote them before lots: a Pro client's balance with no lot list.
    await doc.send(new PutCommand({ TableName: table, Item: { ...accountKeys.profile(id), id, email: `legacy.${id}@people.example`, role: 'client', plan: 'pro', full_name: 'Old Client' } }));
    await doc.send(new PutCommand({ TableName: table, Item: { ...accountKeys.balance(id), credits: 7, seq: 3 } }));
    expect(await ledger.lots(id)).toEqual([lot(7, planLot('pro'))]);
    const generationId = randomUUID();
    expect((await ledger.reserve(id, { credits: 2, key: 'r', generationId, reason: 'Images' })).lots).toEqual([lot(2, planLot('pro'))]);
    await ledger.grant(id, { credits: 1, key: 'gift', reason: 'Goodwill', lot: PROMOTIONAL_LOT });
    expect(await ledger.lots(id)).toEqual([lot(5, planLot('pro')), lot(1, PROMOTIONAL_LOT)]);
    expect(await ledger.balance(id)).toBe(6);
  });

  it('commitOne writes its linked writes and the commit in one transaction: a refused write commits nothing, a repeat pays nothing twice', async () => {
    const { ledger } = stores();
    const id = await newClient();
    const doc = documentClient(twin());
    const generations = twin().physicalName('GenerationsTable');
    const generationId = randomUUID();
    await ledger.reserve(id, { credits: 2, key: 'r', generationId, reason: 'Images' });
    const license = (licenseId: string, valueMicros: number) => [
      { Put: { TableName: generations, Item: { pk: `LIC#${licenseId}`, sk: 'LIC', id: licenseId, creditValueMicros: valueMicros }, ConditionExpression: 'attribute_not_exists(pk)' } },
    ];
    const licenseId = `lic_ledger_${generationId}`;
    const first = await ledger.commitOne(id, { key: 'c0', generationId, reason: 'Image 1' }, (credit) => license(licenseId, credit.valueMicros));
    expect(first).toMatchObject({ replayed: false, credit: lot(1, PROMOTIONAL_LOT) });
    const stored = await doc.send(new GetCommand({ TableName: generations, Key: { pk: `LIC#${licenseId}`, sk: 'LIC' } }));
    expect(stored.Item).toMatchObject({ creditValueMicros: PROMOTIONAL_LOT.valueMicros });

    // The same key again: the first commit and its credit, nothing written.
    expect(await ledger.commitOne(id, { key: 'c0', generationId, reason: 'Image 1' }, (credit) => license(licenseId, credit.valueMicros))).toMatchObject({ replayed: true, credit: lot(1, PROMOTIONAL_LOT) });
    // Another key whose license exists: refused as a whole, the credit stays open.
    await expect(ledger.commitOne(id, { key: 'c1', generationId, reason: 'Image 2' }, (credit) => license(licenseId, credit.valueMicros))).rejects.toBeInstanceOf(LinkedWriteRefusedError);
    expect(await ledger.reservation(id, generationId)).toEqual({ reserved: 2, committed: 1, released: 0, open: 1 });
    expect((await ledger.entries(id, { limit: 10 })).entries.filter((e) => e.kind === 'commit')).toHaveLength(1);
    expect(await ledger.used(id, 'c1')).toBe(false);
  });
});
