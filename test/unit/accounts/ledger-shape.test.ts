// The shape of a ledger write (decisions 021, 036): one TransactWriteItems of the key's guard, the
// entry and the balance under a condition; a reserve's condition holds the credits it takes; the
// credits move by lot, oldest first.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { PROMOTIONAL_CREDIT_VALUE_MICROS, PROMOTIONAL_LOT, TESTING_LOT, creditValueMicros, planLot } from '../../../events/plans';
import { compactLots, creditLedger, InsufficientCreditsError, LinkedWriteRefusedError, lotsBehind, takeOldest, type LotCredits } from '../../../functions/accounts/credits';

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const mock = mockClient(doc);
const ledger = creditLedger(doc, 'Accounts', () => new Date('2026-03-01T12:00:00.000Z'));

const STARTER = planLot('starter');
const PRO = planLot('pro');
const lot = (credits: number, of: { valueMicros: number; kind: 'paid' | 'promotional'; noRoyalty?: 'testing-grant' }): LotCredits => ({ credits, ...of });
const balanceKey = { pk: 'ACCOUNT#a1', sk: 'BALANCE' };
const reservationKey = { pk: 'ACCOUNT#a1', sk: 'GEN#g1' };

/** The account's items as the mock answers them. */
function stored(items: { balance?: Record<string, unknown>; reservation?: Record<string, unknown>; plan?: string }) {
  mock.reset();
  mock.on(GetCommand).resolves({});
  mock.on(GetCommand, { Key: balanceKey }).resolves({ Item: items.balance ?? { credits: 7, seq: 3, lots: [lot(7, STARTER)] } });
  if (items.reservation) mock.on(GetCommand, { Key: reservationKey }).resolves({ Item: items.reservation });
  mock.on(GetCommand, { Key: { pk: 'ACCOUNT#a1', sk: 'PROFILE' } }).resolves({ Item: { plan: items.plan ?? 'free' } });
  mock.on(TransactWriteCommand).resolves({});
}
const written = () => mock.commandCalls(TransactWriteCommand)[0].args[0].input.TransactItems!;

beforeEach(() => stored({}));

describe('ledger writes', () => {
  it('a reserve is one transaction: guard, entry, balance (by its sequence and holding the credits), generation', async () => {
    const result = await ledger.reserve('a1', { credits: 2, key: 'k1', generationId: 'g1', reason: 'Image' });
    expect(result).toMatchObject({ balance: 5, replayed: false, lots: [lot(2, STARTER)], entry: { kind: 'reserve', credits: -2, balanceAfter: 5, generationId: 'g1', at: '2026-03-01T12:00:00.000Z' } });
    const items = written();
    expect(items).toHaveLength(4);
    expect(items[0].Put).toMatchObject({ Item: { pk: 'ACCOUNT#a1', sk: 'KEY#k1', kind: 'reserve', credits: 2 }, ConditionExpression: 'attribute_not_exists(pk)' });
    expect(items[1].Put).toMatchObject({ Item: { pk: 'ACCOUNT#a1', sk: 'LEDGER#000000000004', balanceAfter: 5 }, ConditionExpression: 'attribute_not_exists(pk)' });
    expect(items[2].Update).toMatchObject({
      Key: balanceKey,
      ConditionExpression: 'seq = :seen AND credits >= :n',
      ExpressionAttributeValues: expect.objectContaining({ ':after': 5, ':seq': 4, ':seen': 3, ':n': 2, ':lots': [lot(5, STARTER)] }),
    });
    // A new reservation: created once, holding the credits it took by lot.
    expect(items[3].Update).toMatchObject({ Key: reservationKey, ConditionExpression: 'attribute_not_exists(pk)', ExpressionAttributeValues: expect.objectContaining({ ':held': [lot(2, STARTER)] }) });
  });

  it('a commit is bounded by what the generation has open, as it was read', async () => {
    stored({ reservation: { reserved: 3, open: 3, committed: 0, released: 0, openLots: [lot(3, STARTER)] } });
    await ledger.commit('a1', { credits: 2, key: 'k1', generationId: 'g1', reason: 'Image' });
    const items = written();
    expect(items[2].Update?.ExpressionAttributeValues).toMatchObject({ ':after': 7 });
    expect(items[3].Update).toMatchObject({
      ConditionExpression: 'reserved = :seenReserved AND #open = :seenOpen',
      ExpressionAttributeValues: { ':n': 2, ':minus': -2, ':seenReserved': 3, ':seenOpen': 3, ':held': [lot(1, STARTER)] },
    });
  });

  it('refuses a commit beyond what the generation has open before writing', async () => {
    stored({ reservation: { reserved: 2, open: 1, committed: 1, released: 0, openLots: [lot(1, STARTER)] } });
    await expect(ledger.commit('a1', { credits: 2, key: 'k1', generationId: 'g1', reason: 'Image' })).rejects.toMatchObject({
      status: 409,
      message: 'This generation has no reserved credits left to commit or release.',
    });
    stored({});
    await expect(ledger.release('a1', { credits: 1, key: 'k1', generationId: 'g1', reason: 'Image' })).rejects.toMatchObject({ status: 409 });
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('an admin grant adds its lot last and writes its audit entry, with the category, in the same transaction', async () => {
    await ledger.grant('a1', { credits: 5, key: 'k1', reason: 'Goodwill', lot: PROMOTIONAL_LOT, category: 'goodwill', by: { sub: 'admin1', email: 'admin@people.example' } });
    const items = written();
    expect(items).toHaveLength(4);
    expect(items[1].Put?.Item).toMatchObject({ kind: 'grant', credits: 5, balanceAfter: 12, by: 'admin@people.example', category: 'goodwill', lots: [lot(5, PROMOTIONAL_LOT)] });
    expect(items[2].Update?.ExpressionAttributeValues).toMatchObject({ ':lots': [lot(7, STARTER), lot(5, PROMOTIONAL_LOT)] });
    expect(items[3].Put?.Item).toMatchObject({ action: 'credits-granted', by: 'admin@people.example', detail: '5 credits (goodwill): Goodwill' });
  });

  it('refuses a reserve beyond the balance before writing, naming both figures', async () => {
    await expect(ledger.reserve('a1', { credits: 8, key: 'k1', generationId: 'g1', reason: 'Image' })).rejects.toEqual(new InsufficientCreditsError(8, 7));
    await expect(ledger.reserve('a1', { credits: 8, key: 'k1', generationId: 'g1', reason: 'Image' })).rejects.toThrow('Not enough credits: this needs 8 and your balance is 7.');
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('refuses amounts that are not whole positive numbers, a reserve without its generation, and a grant without a sound lot', async () => {
    for (const credits of [0, -1, 1.5, Number.NaN]) {
      await expect(ledger.grant('a1', { credits, key: 'k1', reason: 'x', lot: STARTER })).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/credits must be a whole number/) });
    }
    await expect(ledger.reserve('a1', { credits: 1, key: 'k1', generationId: '', reason: 'x' })).rejects.toMatchObject({ status: 400, message: 'a reserve needs the generationId it belongs to' });
    await expect(ledger.grant('a1', { credits: 1, key: 'k1', reason: 'x', lot: undefined as never })).rejects.toMatchObject({ status: 400, message: 'a grant needs its lot: the value of one credit and its kind' });
    await expect(ledger.grant('a1', { credits: 1, key: 'k1', reason: 'x', lot: { valueMicros: 1.5, kind: 'paid' } })).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/^lot.valueMicros must be a whole number/) });
    await expect(ledger.grant('a1', { credits: 1, key: 'k1', reason: 'x', lot: { valueMicros: 1, kind: 'free' as never } })).rejects.toMatchObject({ status: 400, message: 'lot.kind must be one of paid, promotional' });
    // A promotional credit is never worth more than the cheapest paid credit.
    await expect(ledger.grant('a1', { credits: 1, key: 'k1', reason: 'x', lot: { valueMicros: 300_000, kind: 'promotional' } })).rejects.toMatchObject({
      status: 400,
      message: `a promotional lot is worth at most ${PROMOTIONAL_CREDIT_VALUE_MICROS} micro-dollars a credit, the cheapest paid credit`,
    });
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });
});

describe('lots', () => {
  it('spending takes the oldest lots first, across lots; empty lots are dropped', () => {
    const lots = [lot(2, PROMOTIONAL_LOT), lot(3, STARTER), lot(4, PRO)];
    expect(takeOldest(lots, 4)).toEqual({ taken: [lot(2, PROMOTIONAL_LOT), lot(2, STARTER)], rest: [lot(1, STARTER), lot(4, PRO)] });
    expect(takeOldest(lots, 2)).toEqual({ taken: [lot(2, PROMOTIONAL_LOT)], rest: [lot(3, STARTER), lot(4, PRO)] });
    expect(takeOldest(lots, 9)).toEqual({ taken: lots, rest: [] });
    expect(() => takeOldest(lots, 10)).toThrow('the lots hold 9 credits, not the 10 asked for');
  });

  it('neighbouring lots of the same value and kind merge, so the balance item stays small; others keep their order', () => {
    expect(compactLots([lot(80, STARTER), lot(0, PRO), lot(80, STARTER), lot(1, TESTING_LOT), lot(2, PROMOTIONAL_LOT)])).toEqual([lot(160, STARTER), lot(1, TESTING_LOT), lot(2, PROMOTIONAL_LOT)]);
  });

  it('a balance stored before lots is one lot of the plan: a paid plan at its credit value, the Free plan promotional', () => {
    expect(lotsBehind(7, undefined, 'starter')).toEqual([lot(7, { valueMicros: creditValueMicros('starter'), kind: 'paid' })]);
    expect(lotsBehind(7, undefined, 'free')).toEqual([lot(7, { valueMicros: PROMOTIONAL_CREDIT_VALUE_MICROS, kind: 'promotional' })]);
    expect(lotsBehind(0, undefined, 'pro')).toEqual([]);
    // Lots that do not add up are trimmed from the newest, or completed by such a lot.
    expect(lotsBehind(3, [lot(2, PRO), lot(2, STARTER)], 'free')).toEqual([lot(2, PRO), lot(1, STARTER)]);
    expect(lotsBehind(3, [lot(2, PRO)], 'free')).toEqual([lot(2, PRO), lot(1, PROMOTIONAL_LOT)]);
  });

  it('a reserve on a balance stored before lots takes the plan lot and writes the lots from then on', async () => {
    stored({ balance: { credits: 7, seq: 3 }, plan: 'pro' });
    const result = await ledger.reserve('a1', { credits: 2, key: 'k1', generationId: 'g1', reason: 'Image' });
    expect(result.lots).toEqual([lot(2, PRO)]);
    expect(written()[2].Update?.ExpressionAttributeValues).toMatchObject({ ':lots': [lot(5, PRO)] });
  });

  it('a release puts the credits back first on the balance: they were its oldest', async () => {
    stored({
      balance: { credits: 3, seq: 5, lots: [lot(3, STARTER)] },
      reservation: { reserved: 3, open: 3, committed: 0, released: 0, openLots: [lot(1, PROMOTIONAL_LOT), lot(2, STARTER)] },
    });
    const result = await ledger.release('a1', { credits: 2, key: 'k1', generationId: 'g1', reason: 'Not delivered' });
    expect(result.lots).toEqual([lot(1, PROMOTIONAL_LOT), lot(1, STARTER)]);
    const items = written();
    expect(items[2].Update?.ExpressionAttributeValues).toMatchObject({ ':after': 5, ':lots': [lot(1, PROMOTIONAL_LOT), lot(4, STARTER)] });
    expect(items[3].Update?.ExpressionAttributeValues).toMatchObject({ ':held': [lot(1, STARTER)] });
  });

  it('commitOne writes the linked writes with the credit it consumes, in the same transaction', async () => {
    stored({ reservation: { reserved: 2, open: 2, committed: 0, released: 0, openLots: [lot(1, TESTING_LOT), lot(1, STARTER)] } });
    const seen: unknown[] = [];
    const result = await ledger.commitOne('a1', { key: 'k1', generationId: 'g1', reason: 'Image 1' }, (credit) => {
      seen.push(credit);
      return [{ Put: { TableName: 'Generations', Item: { pk: 'LIC#1', sk: 'LIC', value: credit.valueMicros }, ConditionExpression: 'attribute_not_exists(pk)' } }];
    });
    expect(seen).toEqual([lot(1, TESTING_LOT)]);
    expect(result.credit).toEqual(lot(1, TESTING_LOT));
    const items = written();
    expect(items).toHaveLength(5);
    expect(items[3].Update?.ExpressionAttributeValues).toMatchObject({ ':n': 1, ':held': [lot(1, STARTER)] });
    expect(items[4].Put).toMatchObject({ TableName: 'Generations', Item: { pk: 'LIC#1', value: 0 } });
  });

  it('commitOne answers a linked write refused by its own condition, and retries a race', async () => {
    stored({ reservation: { reserved: 1, open: 1, committed: 0, released: 0, openLots: [lot(1, STARTER)] } });
    const canceled = (...codes: string[]) => Object.assign(new Error('canceled'), { name: 'TransactionCanceledException', CancellationReasons: codes.map((Code) => ({ Code })) });
    mock.on(TransactWriteCommand).rejectsOnce(canceled('None', 'None', 'ConditionalCheckFailed', 'None', 'None')).rejects(canceled('None', 'None', 'None', 'None', 'ConditionalCheckFailed'));
    const linked = () => [{ Put: { TableName: 'Generations', Item: { pk: 'LIC#1', sk: 'LIC' }, ConditionExpression: 'attribute_not_exists(pk)' } }];
    await expect(ledger.commitOne('a1', { key: 'k1', generationId: 'g1', reason: 'Image 1' }, linked)).rejects.toEqual(new LinkedWriteRefusedError(0));
    // The balance race was read again and retried; the license's own refusal ended it.
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(2);
  });
});
