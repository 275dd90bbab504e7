// The Connect webhook's service (functions/payouts/routes/receive-connect-event/service.ts) with
// Stripe's own signing (the package's test header) and an in-memory store: a delivery without a
// valid signature is refused by name and changes nothing; an event is applied once by its id; an
// account that is not ours is ignored; a bank change emails the talent; a reversed transfer makes
// the statement due again with the PayoutsFailed metric; emails name the month and what to do.
import Stripe from 'stripe';
import { FAILURE_METRICS } from '../../../events/metrics';
import type { ConnectNameCheck } from '../../../events/payouts';
import { bankAccountChangedEmail, payoutFailedEmail, setUpPayoutsEmail } from '../../../functions/payouts/emails';
import { receiveConnectEvent, type ConnectEventDeps } from '../../../functions/payouts/routes/receive-connect-event/service';
import type { HistoryEntry, PayoutRecord, PayoutStore } from '../../../functions/payouts/store';
import { ValidationError } from '../../../functions/shared/errors';
import type { HttpEvent } from '../../../functions/shared/http';
import { recordingOnce } from '../../support/recording-once';

const SECRET = 'whsec_unit_connect';

function world(options: { individual?: { first_name: string | null; last_name: string | null }; verifiedName?: string } = {}) {
  const { once, completed: applied } = recordingOnce('stripe-connect-event', (input) => (input as { id: string }).id);
  const history: HistoryEntry[] = [];
  const payouts = new Map<string, PayoutRecord>([
    ['2026-11', { statementId: '2026-11_ada', talentId: 'ada', month: '2026-11', statementCents: 1500, carriedInCents: 0, amountCents: 1500, state: 'paid', transferId: 'tr_1', paidAt: '2026-12-01T02:00:00.000Z', updatedAt: '2026-12-01T02:00:00.000Z' }],
  ]);
  const sent: Array<{ to: string; subject: string }> = [];
  const unpaid: string[] = [];
  const nameChecks: ConnectNameCheck[] = [];
  const store: Partial<PayoutStore> = {
    talentOfAccount: async (id) => (id === 'acct_ada' ? 'ada' : undefined),
    getConnect: async () => ({ talentId: 'ada', accountId: 'acct_ada', email: 'ada@talent.example', talentName: 'Ada', createdAt: '2026-10-01T00:00:00Z', nameCheck: nameChecks.at(-1) }),
    setConnectStatus: async () => undefined,
    recordNameCheck: async (_t, check) => {
      nameChecks.push(check);
      return true;
    },
    listPayouts: async () => [...payouts.values()].map((p) => structuredClone(p)),
    putPayout: async (record, from) => {
      const current = payouts.get(record.month);
      if (!current || !from.includes(current.state)) return false;
      payouts.set(record.month, structuredClone(record));
      return true;
    },
    addHistory: async (_t, entry) => void history.push(entry),
  };
  const stripe = new Stripe('sk_test_unit');
  Object.assign(stripe.accounts, {
    retrieve: async (id: string) => ({
      id,
      payouts_enabled: true,
      capabilities: { transfers: 'active' },
      requirements: { currently_due: [] },
      external_accounts: { data: [{ last4: '4321' }] },
      ...(options.individual ? { individual: { object: 'person', ...options.individual } } : {}),
    }),
  });
  Object.assign(stripe.transfers, { retrieve: async (id: string) => ({ id, amount: 1500, reversed: true, metadata: { statementId: '2026-11_ada' } }) });
  const deps: ConnectEventDeps = {
    stripe,
    payAwaiting: async () => undefined,
    secret: async () => SECRET,
    store: store as PayoutStore,
    statements: { setPaid: async (_t, month, paid) => (paid ? undefined : void unpaid.push(month)) },
    send: async (to, email) => {
      sent.push({ to, subject: email.subject });
      return undefined;
    },
    once,
    siteUrl: 'https://humanly.example',
    now: () => new Date('2026-12-02T00:00:00Z'),
    verifiedName: async () => options.verifiedName,
  };
  const deliver = (event: Record<string, unknown>, signature?: string) => {
    const body = JSON.stringify(event);
    const header = signature ?? stripe.webhooks.generateTestHeaderString({ payload: body, secret: SECRET });
    const request = { body, isBase64Encoded: false, headers: header ? { 'Stripe-Signature': header } : {} } as unknown as HttpEvent;
    return receiveConnectEvent(deps, request);
  };
  return { deliver, applied, history, payouts, sent, unpaid, nameChecks };
}

const event = (id: string, type: string, object: Record<string, unknown>, account = 'acct_ada') => ({ id, object: 'event', type, account, created: 1_796_000_000, data: { object } });

let logged: string[];
beforeEach(() => {
  logged = [];
  jest.spyOn(console, 'log').mockImplementation((line: string) => void logged.push(String(line)));
});
afterEach(() => jest.restoreAllMocks());

describe('POST /webhooks/stripe-connect', () => {
  it('refuses a delivery without a signature, or with one that does not match, naming why, and applies nothing', async () => {
    const w = world();
    const e = event('evt_1', 'account.external_account.created', { id: 'ba_1', last4: '4321' });
    await expect(w.deliver(e, '')).rejects.toThrow(new ValidationError('This request has no Stripe-Signature header: only Stripe may send events here.'));
    await expect(w.deliver(e, `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`)).rejects.toThrow('The Stripe-Signature header does not match this body');
    expect(w.applied.size).toBe(0);
    expect(w.sent).toEqual([]);
  });

  it('applies a bank account change once: a history line and one email to the talent', async () => {
    const w = world();
    const e = event('evt_2', 'account.external_account.created', { id: 'ba_1', last4: '4321', bank_name: 'STRIPE TEST BANK' });
    expect((await w.deliver(e)).statusCode).toBe(200);
    const again = await w.deliver(e);
    expect(JSON.parse(String(again.body))).toEqual({ received: true, replayed: true });
    expect(w.history.map((h) => h.what)).toEqual(['Bank account change: Stripe added the bank account ending 4321 (STRIPE TEST BANK) for your payouts.']);
    expect(w.sent).toEqual([{ to: 'ada@talent.example', subject: 'The bank account for your Humanly payouts changed' }]);
  });

  it('acknowledges and ignores the events of an account that is not ours', async () => {
    const w = world();
    expect((await w.deliver(event('evt_3', 'payout.failed', { id: 'po_1' }, 'acct_stranger'))).statusCode).toBe(200);
    expect(w.history).toEqual([]);
    expect(w.applied.has('evt_3')).toBe(true);
  });

  it('a reversed transfer makes the statement due again: payout failed, statement unpaid, PayoutsFailed counted', async () => {
    const w = world();
    await w.deliver(event('evt_4', 'transfer.reversed', { id: 'tr_1' }));
    expect(w.payouts.get('2026-11')).toMatchObject({ state: 'failed', failure: 'The transfer tr_1 was reversed by the platform: the payout is due again.' });
    expect(w.unpaid).toEqual(['2026-11']);
    expect(logged.filter((l) => l.includes(`metric ${FAILURE_METRICS.payoutFailed}`))).toHaveLength(1);
  });
});

describe("the payout account's name against the verified ID", () => {
  it('warns the console once when the account names someone else, and says so again when it matches', async () => {
    const options = { individual: { first_name: 'Ada', last_name: 'Byron' }, verifiedName: 'Ada Lovelace' };
    const w = world(options);
    await w.deliver(event('evt_n1', 'account.updated', { id: 'acct_ada' }));
    expect(w.nameChecks).toEqual([{ result: 'mismatch', accountName: 'Ada Byron', verifiedName: 'Ada Lovelace', note: 'the last name differs', checkedAt: '2026-12-02T00:00:00.000Z' }]);
    const warning = 'Warning: the name on the payout account (Ada Byron) differs from the verified ID (Ada Lovelace): the last name differs. Check before paying.';
    expect(w.history.map((h) => h.what)).toContain(warning);
    // The same account again: nothing new to say.
    await w.deliver(event('evt_n2', 'account.updated', { id: 'acct_ada' }));
    expect(w.nameChecks).toHaveLength(1);
    expect(w.history.filter((h) => h.what === warning)).toHaveLength(1);
    // The names stay out of the log.
    expect(logged.some((l) => l.includes('Byron') || l.includes('Lovelace'))).toBe(false);
    // The talent corrects the account's name at Stripe.
    options.individual = { first_name: 'Ada', last_name: 'Lovelace' };
    await w.deliver(event('evt_n2b', 'account.updated', { id: 'acct_ada' }));
    expect(w.nameChecks.map((c) => c.result)).toEqual(['mismatch', 'match']);
    expect(w.history.at(-1)?.what).toBe('The name on the payout account now matches the verified ID.');
  });

  it('reads accents, order and a middle name as the identity check does, and checks nothing without a verified ID', async () => {
    const same = world({ individual: { first_name: 'Zoë Anne', last_name: 'Brontë' }, verifiedName: 'Zoe Bronte' });
    await same.deliver(event('evt_n3', 'account.updated', { id: 'acct_ada' }));
    expect(same.nameChecks.map((c) => c.result)).toEqual(['match']);
    expect(same.history.some((h) => h.what.startsWith('Warning'))).toBe(false);

    const unverified = world({ individual: { first_name: 'Ada', last_name: 'Byron' } });
    await unverified.deliver(event('evt_n4', 'account.updated', { id: 'acct_ada' }));
    expect(unverified.nameChecks).toEqual([]);

    const noName = world({ verifiedName: 'Ada Lovelace' });
    await noName.deliver(event('evt_n5', 'account.updated', { id: 'acct_ada' }));
    expect(noName.nameChecks).toEqual([]);
  });
});

describe('payout emails', () => {
  it('name the month, the amount and what to do, with a link to the payout setup', () => {
    const setup = setUpPayoutsEmail({ talentName: 'Ada', month: '2026-11', amountCents: 1234, siteUrl: 'https://humanly.example/' });
    expect(setup.text).toContain('November 2026 come to $12.34');
    expect(setup.text).toContain('https://humanly.example/talent-portal?payouts=setup');
    const failed = payoutFailedEmail({ talentName: 'Ada <b>', month: '2026-11', amountCents: 1500, failure: 'Your bank says no.', siteUrl: 'https://humanly.example' });
    expect(failed.subject).toBe('Your Humanly payout for November 2026 did not go through');
    expect(failed.text).toContain('Your bank says no.');
    expect(failed.html).toContain('Ada &#60;b&#62;');
    expect(bankAccountChangedEmail({ talentName: 'Ada', change: 'Stripe added the bank account ending 4321 for your payouts.', siteUrl: 'https://humanly.example' }).text).toContain('If you did not make this change');
  });
});
