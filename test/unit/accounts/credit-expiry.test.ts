// Plan credits that expire, take-backs, and the monthly and daily jobs around them (decision 043):
// the shape of the writes, the words of an expire entry, who gets the month's credits, and a
// sign-in that is recorded without ever failing the sign-in.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import type { PostAuthenticationTriggerEvent } from 'aws-lambda';
import type { AdminUserSummary } from '../../../events/accounts';
import { PROMOTIONAL_LOT, TESTING_LOT, planCreditsExpireAt, planLot, type CreditLot } from '../../../events/plans';
import { creditLedger, expiryReason, spendableCredits, splitExpired, takeFromSource, type LotCredits } from '../../../functions/accounts/credits';
import type { AccountStore } from '../../../functions/accounts/store';
import type { CreditLedger } from '../../../functions/accounts/credits';
import { grantMonthlyAllowance } from '../../../functions/accounts/triggers/monthly-allowance/service';
import { expireCredits } from '../../../functions/accounts/triggers/expire-credits/service';
import { NotFoundError } from '../../../functions/shared/errors';

process.env.ACCOUNTS_TABLE = 'Accounts';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the handler parses its environment at load
const { recordSignIn } = require('../../../functions/accounts/triggers/post-authentication/handler') as typeof import('../../../functions/accounts/triggers/post-authentication/handler');

const doc = DynamoDBDocumentClient.from(new DynamoDBClient({ region: 'us-east-1' }));
const mock = mockClient(doc);
const NOW = '2027-03-01T12:00:00.000Z';
const ledger = creditLedger(doc, 'Accounts', () => new Date(NOW));

const STARTER = planLot('starter');
const lot = (credits: number, of: CreditLot): LotCredits => ({ credits, ...of });
const expiring = (of: CreditLot, expiresAt: string): CreditLot => ({ ...of, expiresAt });
const balanceKey = { pk: 'ACCOUNT#a1', sk: 'BALANCE' };

function stored(balance: Record<string, unknown>) {
  mock.reset();
  mock.on(GetCommand).resolves({});
  mock.on(GetCommand, { Key: balanceKey }).resolves({ Item: balance });
  mock.on(TransactWriteCommand).resolves({});
}
const written = () => mock.commandCalls(TransactWriteCommand)[0].args[0].input.TransactItems!;

describe('expiry in a ledger write', () => {
  const FEB = expiring(PROMOTIONAL_LOT, '2027-02-28T23:59:59.999Z');
  const MAR = expiring(STARTER, '2027-03-31T23:59:59.999Z');

  it('a change on a balance with expired lots writes the expire entry first (seq + 1), then the change (seq + 2), in one transaction', async () => {
    stored({ credits: 13, seq: 4, lots: [lot(10, FEB), lot(3, MAR)] });
    const result = await ledger.reserve('a1', { credits: 2, key: 'k1', generationId: 'g1', reason: 'Image' });
    expect(result).toMatchObject({ balance: 1, lots: [lot(2, MAR)], entry: { kind: 'reserve', credits: -2, balanceAfter: 1 } });
    const items = written();
    expect(items[0].Put?.Item).toMatchObject({ sk: 'KEY#k1', balance: 1 });
    expect(items[1].Put?.Item).toMatchObject({ sk: 'LEDGER#000000000005', kind: 'expire', credits: -10, balanceAfter: 3, reason: '10 Free plan credits expired', lots: [lot(10, FEB)] });
    expect(items[2].Put?.Item).toMatchObject({ sk: 'LEDGER#000000000006', kind: 'reserve', balanceAfter: 1 });
    expect(items[3].Update).toMatchObject({ Key: balanceKey, ExpressionAttributeValues: expect.objectContaining({ ':after': 1, ':seq': 6, ':seen': 4, ':lots': [lot(1, MAR)] }) });
  });

  it('a reserve counts only what is spendable, and refuses before writing anything', async () => {
    stored({ credits: 13, seq: 4, lots: [lot(10, FEB), lot(3, MAR)] });
    await expect(ledger.reserve('a1', { credits: 4, key: 'k1', generationId: 'g1', reason: 'Image' })).rejects.toThrow('Not enough credits: this needs 4 and your balance is 3.');
    expect(await ledger.balance('a1')).toBe(3);
    expect(await ledger.lots('a1')).toEqual([lot(3, MAR)]);
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('a grant already expired when it lands is written, then expires in an entry right after it', async () => {
    stored({ credits: 3, seq: 1, lots: [lot(3, MAR)] });
    const late = expiring(STARTER, '2027-02-28T23:59:59.999Z');
    const result = await ledger.grant('a1', { credits: 80, key: 'invoice:in_1', reason: 'Starter plan credits', lot: late });
    expect(result).toMatchObject({ balance: 3, entry: { kind: 'grant', credits: 80, balanceAfter: 83, expiresAt: '2027-02-28T23:59:59.999Z' } });
    const items = written();
    expect(items.map((i) => i.Put?.Item?.kind ?? 'balance')).toEqual(['grant', 'grant', 'expire', 'balance']);
    expect(items[2].Put?.Item).toMatchObject({ sk: 'LEDGER#000000000003', credits: -80, balanceAfter: 3, reason: '80 Starter plan credits expired' });
  });

  it('expire() writes the entry alone when something is due, and nothing otherwise', async () => {
    stored({ credits: 13, seq: 4, lots: [lot(10, FEB), lot(3, MAR)] });
    expect(await ledger.expire('a1')).toMatchObject({ balance: 3, expired: [lot(10, FEB)], entry: { kind: 'expire', credits: -10, balanceAfter: 3 } });
    expect(written()).toHaveLength(2);
    expect(written()[1].Update).toMatchObject({ ConditionExpression: 'seq = :seen', ExpressionAttributeValues: expect.objectContaining({ ':seq': 5, ':lots': [lot(3, MAR)] }) });
    stored({ credits: 3, seq: 5, lots: [lot(3, MAR)] });
    expect(await ledger.expire('a1')).toEqual({ balance: 3, expired: [] });
    expect(mock.commandCalls(TransactWriteCommand)).toHaveLength(0);
  });

  it('a take-back of nothing left still writes its entry, of 0', async () => {
    stored({ credits: 3, seq: 2, lots: [lot(3, MAR)] });
    const result = await ledger.takeBack('a1', { key: 'refund:re_1', source: 'checkout:cs_1', credits: 5, reason: 'Refund' });
    expect(result).toMatchObject({ takenBack: 0, shortfall: 5, balance: 3, replayed: false });
    expect(Object.is(result.entry.credits, 0)).toBe(true);
    expect(written()[0].Put?.Item).toMatchObject({ kind: 'take-back', source: 'checkout:cs_1', takenBack: 0, shortfall: 5 });
  });
});

describe('lots by source and expiry', () => {
  it('lots of different sources or expiries never merge; a take-back takes only its source, oldest first', () => {
    const a = { ...STARTER, source: 'checkout:a' };
    const b = { ...STARTER, source: 'checkout:b' };
    const lots = [lot(2, a), lot(3, b), lot(4, a)];
    expect(takeFromSource(lots, 'checkout:a', 5)).toEqual({ taken: [lot(5, a)], rest: [lot(3, b), lot(1, a)] });
    expect(takeFromSource(lots, 'checkout:a', 9)).toEqual({ taken: [lot(6, a)], rest: [lot(3, b)] });
    expect(takeFromSource(lots, 'checkout:a', 3)).toEqual({ taken: [lot(3, a)], rest: [lot(3, b), lot(3, a)] });
    expect(takeFromSource(lots, 'checkout:c', 3)).toEqual({ taken: [], rest: lots });
  });

  it('a lot expires at its expiresAt, not before', () => {
    const lots = [lot(1, expiring(STARTER, '2027-01-31T23:59:59.999Z')), lot(2, STARTER)];
    expect(splitExpired(lots, Date.parse('2027-01-31T23:59:59.998Z')).expired).toEqual([]);
    expect(splitExpired(lots, Date.parse('2027-01-31T23:59:59.999Z'))).toEqual({ live: [lot(2, STARTER)], expired: [lots[0]] });
    expect(spendableCredits({ credits: 3, lots }, Date.parse('2027-02-01T00:00:00.000Z'))).toBe(2);
    // A balance stored before lots never expires.
    expect(spendableCredits({ credits: 3 }, Date.parse('2030-01-01T00:00:00.000Z'))).toBe(3);
  });

  it('plan credits granted for a month expire at the end of the following month, UTC', () => {
    expect(planCreditsExpireAt(new Date('2027-01-15T10:00:00Z'))).toBe('2027-02-28T23:59:59.999Z');
    expect(planCreditsExpireAt(new Date('2027-12-01T00:00:00Z'))).toBe('2028-01-31T23:59:59.999Z');
    expect(planCreditsExpireAt(new Date('2027-11-30T23:59:59Z'))).toBe('2027-12-31T23:59:59.999Z');
  });

  it('an expire entry names what expired', () => {
    expect(expiryReason([lot(12, STARTER)])).toBe('12 Starter plan credits expired');
    expect(expiryReason([lot(1, planLot('enterprise'))])).toBe('1 Enterprise plan credit expired');
    expect(expiryReason([lot(10, PROMOTIONAL_LOT), lot(3, planLot('pro')), lot(2, TESTING_LOT)])).toBe('10 Free plan credits, 3 Pro plan credits and 2 promotional credits expired');
    expect(expiryReason([lot(5, { valueMicros: 123, kind: 'paid' })])).toBe('5 plan credits expired');
  });
});

describe('the monthly credits', () => {
  const client = (id: string, plan: AdminUserSummary['plan'], extra: Partial<AdminUserSummary> = {}): AdminUserSummary => ({
    id,
    email: `${id}@people.example`,
    full_name: id,
    role: 'client',
    plan,
    disabled: false,
    createdAt: '2027-01-05T00:00:00.000Z',
    ...extra,
  });
  const clients = [
    client('free-active', 'free', { lastSignInAt: '2027-02-01T00:00:00.000Z' }),
    client('free-signed-in-today', 'free', { lastSignInAt: '2027-03-01T00:01:00.000Z' }),
    client('free-dormant', 'free'),
    client('free-lapsed', 'free', { lastSignInAt: '2027-01-31T23:59:59.999Z' }),
    client('free-new', 'free', { createdAt: '2027-03-01T00:00:00.000Z', lastSignInAt: '2027-03-01T00:01:00.000Z' }),
    client('starter-admin', 'starter'),
    client('starter-stripe', 'starter', { billing: 'stripe' }),
  ];
  const accounts = {
    list: async (q: { plan: string; offset: number; limit: number }) => {
      const all = clients.filter((c) => c.plan === q.plan);
      return { items: all.slice(q.offset, q.offset + q.limit), total: all.length };
    },
  } as unknown as AccountStore;

  it('go to Free clients who signed in since the start of the month before and signed up before this month, and to plans an admin set', async () => {
    const grants: string[] = [];
    const fake = { grant: async (id: string, c: { credits: number; key: string; lot: CreditLot }) => (grants.push(`${id} ${c.credits} ${c.key} ${c.lot.kind} ${c.lot.expiresAt}`), { replayed: false }) } as unknown as CreditLedger;
    expect(await grantMonthlyAllowance({ accounts, ledger: fake, now: () => new Date() }, { time: '2027-03-01T00:05:00Z' })).toEqual({ month: '2027-03', granted: 3, alreadyGranted: 0 });
    expect(grants).toEqual([
      'free-active 10 free:2027-03 promotional 2027-04-30T23:59:59.999Z',
      'free-signed-in-today 10 free:2027-03 promotional 2027-04-30T23:59:59.999Z',
      'starter-admin 80 allowance:2027-03 paid 2027-04-30T23:59:59.999Z',
    ]);
  });
});

describe('the daily expiry sweep', () => {
  it('expires every client balance page by page, counting what expired; a client without a balance is skipped', async () => {
    const ids = Array.from({ length: 12 }, (_, i) => `c${i}`);
    const listed: unknown[] = [];
    const accounts = {
      list: async (q: { role: string; offset: number; limit: number }) => (listed.push(q), { items: ids.slice(q.offset, q.offset + q.limit).map((id) => ({ id })), total: ids.length }),
    } as unknown as AccountStore;
    const fake = {
      expire: async (id: string) => {
        if (id === 'c3') throw new NotFoundError('This account has no credit balance: only client accounts hold credits.');
        return { balance: 0, expired: id === 'c5' || id === 'c11' ? [lot(4, STARTER)] : [] };
      },
    } as unknown as CreditLedger;
    expect(await expireCredits({ accounts, ledger: fake })).toEqual({ accounts: 12, expiredAccounts: 2, expiredCredits: 8 });
    expect(listed).toEqual([expect.objectContaining({ role: 'client', offset: 0 })]);
  });
});

describe('recording a sign-in', () => {
  const event = (sub?: string) => ({ request: { userAttributes: sub ? { sub } : {} } }) as unknown as PostAuthenticationTriggerEvent;

  it("records the person's sign-in, and never fails the sign-in when it cannot", async () => {
    const recorded: string[] = [];
    await recordSignIn({ accounts: { recordSignIn: async (id: string) => (recorded.push(id), true) } }, event('sub-1'));
    await recordSignIn({ accounts: { recordSignIn: async () => Promise.reject(new Error('throttled')) } }, event('sub-2'));
    await recordSignIn({ accounts: { recordSignIn: async (id: string) => (recorded.push(id), true) } }, event());
    expect(recorded).toEqual(['sub-1']);
  });
});
