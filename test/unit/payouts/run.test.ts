// The payout run's rules (functions/payouts/run.ts) over an in-memory payouts store with the
// table's conditions and a Stripe double that replays a key's answer as Stripe does (errors too):
// carrying under the minimum, one transfer per statement across reruns and a run that stopped
// half-way, a refused transfer counted (PayoutsFailed) and retried with a new key, the talent
// emailed only when it is theirs to fix, the setup email once; and the month's reconciliation.
import Stripe from 'stripe';
import { FAILURE_METRICS } from '../../../events/metrics';
import { NOTHING_DUE_MESSAGE } from '../../../events/royalty-values';
import { connectStatusOf } from '../../../functions/payouts/connect';
import { manualPayout, payStatement, retryPayout, runMonth, transferKeyOf, type PayoutDeps } from '../../../functions/payouts/run';
import type { ConnectRecord, HistoryEntry, PayoutRecord, PayoutStore } from '../../../functions/payouts/store';
import { buildRun, OURS_TO_FIX_MESSAGE, payoutView, talentPayoutView } from '../../../functions/payouts/views';
import type { StatementRecord } from '../../../functions/royalties/store';
import { inMemoryIdempotency } from '../../../functions/shared/idempotency';

type Statement = StatementRecord;
const ADMIN = { sub: 'admin-sub-1', email: 'admin@humanly.example' };

function memoryStore() {
  const connects = new Map<string, ConnectRecord>();
  const payouts = new Map<string, PayoutRecord>();
  const history: Array<HistoryEntry & { talentId: string; key: string }> = [];
  const runs = new Map<string, Array<{ at: string; by?: string; bySub?: string }>>();
  const clone = <T>(v: T): T => structuredClone(v);
  const store: Partial<PayoutStore> = {
    getConnect: async (talentId) => clone(connects.get(talentId)),
    setConnectStatus: async (talentId, status) => void (connects.get(talentId)!.status = status),
    getPayout: async (talentId, month) => clone(payouts.get(`${talentId}|${month}`)),
    listPayouts: async (talentId) => [...payouts.values()].filter((p) => p.talentId === talentId).sort((a, b) => a.month.localeCompare(b.month)).map(clone),
    listPayoutsOfMonth: async (month) => [...payouts.values()].filter((p) => p.month === month).map(clone),
    async putPayout(record, from, options = {}) {
      const current = payouts.get(`${record.talentId}|${record.month}`);
      const actionsAsRead = options.actionsSeen === undefined || (current?.actions?.length ?? 0) === options.actionsSeen;
      const ok = (current ? from.includes(current.state) : from.includes('absent')) && actionsAsRead;
      if (ok) payouts.set(`${record.talentId}|${record.month}`, clone(record));
      return ok;
    },
    async markCarriedInto(talentId, month, into) {
      const p = payouts.get(`${talentId}|${month}`);
      if (p && (p.carriedInto === undefined || p.carriedInto === into)) p.carriedInto = into;
    },
    async addHistory(talentId, entry, key) {
      if (!history.some((h) => h.key === key)) history.push({ ...entry, talentId, key });
    },
    setRan: async (month, at, by) => void runs.set(month, [...(runs.get(month) ?? []), { at, ...(by ? { by: by.email, bySub: by.sub } : {}) }]),
    getRun: async (month) => (runs.has(month) ? { ranAt: runs.get(month)!.at(-1)!.at, runs: runs.get(month)! } : undefined),
  };
  return { store: store as PayoutStore, connects, payouts, history, runs };
}

/** Stripe's part the run uses: accounts, transfers keyed by idempotency key (an error is replayed too). */
function stripeDouble() {
  const transfers: Stripe.Transfer[] = [];
  const answers = new Map<string, { transfer?: Stripe.Transfer; error?: Error }>();
  const faults: Array<{ code: string }> = [];
  let active = true;
  let n = 0;
  const refusal = (code: string) =>
    Stripe.errors.StripeError.generate({ type: 'invalid_request_error', code, message: `refused: ${code}`, statusCode: 400 } as never);
  const stripe = {
    accounts: {
      retrieve: async (id: string) => ({ id, details_submitted: true, payouts_enabled: active, capabilities: { transfers: active ? 'active' : 'inactive' }, requirements: { currently_due: active ? [] : ['external_account'] }, external_accounts: { data: [{ last4: '6789' }] } }),
    },
    transfers: {
      list: (params: { transfer_group: string }) => ({
        async *[Symbol.asyncIterator]() {
          yield* transfers.filter((t) => t.transfer_group === params.transfer_group);
        },
      }),
      async create(params: { amount: number; destination: string; transfer_group: string; metadata: Record<string, string> }, options: { idempotencyKey: string }) {
        const replay = answers.get(options.idempotencyKey);
        if (replay) {
          if (replay.error) throw replay.error;
          return replay.transfer;
        }
        const fault = faults.shift();
        if (fault) {
          const error = refusal(fault.code);
          answers.set(options.idempotencyKey, { error });
          throw error;
        }
        const transfer = { id: `tr_${++n}`, amount: params.amount, destination: params.destination, transfer_group: params.transfer_group, metadata: params.metadata, created: 1_300_000_000 + n, reversed: false, amount_reversed: 0 } as unknown as Stripe.Transfer;
        transfers.push(transfer);
        answers.set(options.idempotencyKey, { transfer });
        return transfer;
      },
    },
  };
  return { stripe: stripe as unknown as Stripe, transfers, answers, faults, setActive: (v: boolean) => (active = v) };
}

const statementOf = (talentId: string, month: string, royaltyCents: number): Statement => ({
  id: `${month}_${talentId}`,
  talentId,
  talentName: `Name of ${talentId}`,
  month,
  closedAt: `${month}-28T01:00:00.000Z`,
  fromMonth: month,
  totals: { licenses: 1, grossMicros: 0, royaltyMicros: royaltyCents * 10_000, carriedInMicros: 0, royaltyCents, carriedOutMicros: 0, tiers: [] },
  audit: [],
});

function world() {
  const data = memoryStore();
  const s = stripeDouble();
  const statements = new Map<string, Statement>();
  const paid: Array<{ talentId: string; month: string; reference?: string; by?: string }> = [];
  const audits: Array<{ talentId: string; month: string; by: string; bySub?: string; detail: string }> = [];
  const sent: Array<{ to: string; subject: string; text: string }> = [];
  const deps: PayoutDeps = {
    stripe: s.stripe,
    store: data.store,
    statements: {
      getStatement: async (talentId, month) => statements.get(`${talentId}|${month}`),
      listStatementsOfMonth: async (month) => [...statements.values()].filter((st) => st.month === month),
      setPaid: async (talentId, month, p, entry) => {
        paid.push({ talentId, month, reference: p?.reference, by: p?.by });
        audits.push({ talentId, month, by: entry.by, ...(entry.bySub ? { bySub: entry.bySub } : {}), detail: entry.detail });
        const st = statements.get(`${talentId}|${month}`);
        if (st) st.paid = p;
        return st;
      },
    },
    contact: async (talentId) => ({ name: `Name of ${talentId}`, email: `${talentId}@talent.example` }),
    send: async (to, email) => {
      sent.push({ to, subject: email.subject, text: email.text });
      return undefined;
    },
    once: inMemoryIdempotency(),
    siteUrl: 'https://humanly.example',
    minimumCents: 1000,
    now: () => new Date('2026-12-01T02:00:00Z'),
  };
  const add = (talentId: string, month: string, cents: number) => statements.set(`${talentId}|${month}`, statementOf(talentId, month, cents));
  const connect = (talentId: string) => data.connects.set(talentId, { talentId, accountId: `acct_${talentId}`, email: `${talentId}@talent.example`, talentName: `Name of ${talentId}`, createdAt: '2026-11-01T00:00:00Z' });
  return { ...data, ...s, deps, add, connect, paid, audits, sent, statements };
}

let logged: string[];
beforeEach(() => {
  logged = [];
  jest.spyOn(console, 'log').mockImplementation((line: string) => void logged.push(String(line)));
  jest.spyOn(console, 'error').mockImplementation((line: string) => void logged.push(String(line)));
});
afterEach(() => jest.restoreAllMocks());

describe('the payout run', () => {
  it('carries a statement under the minimum into the next month, which pays both in one transfer', async () => {
    const w = world();
    w.connect('ada');
    w.add('ada', '2026-10', 400);
    w.add('ada', '2026-11', 700);
    expect((await runMonth(w.deps, '2026-10')).payouts).toEqual([expect.objectContaining({ state: 'carried', amountCents: 400, carriedInCents: 0 })]);
    expect(w.transfers).toEqual([]);
    const [nov] = (await runMonth(w.deps, '2026-11')).payouts;
    expect(nov).toMatchObject({ state: 'paid', statementCents: 700, carriedInCents: 400, amountCents: 1100, transferId: 'tr_1' });
    expect(w.transfers.map((t) => [t.amount, t.transfer_group, t.metadata.statementId])).toEqual([[1100, 'payouts:2026-11', '2026-11_ada']]);
    expect(w.payouts.get('ada|2026-10')!.carriedInto).toBe('2026-11');
    // The statement is marked paid by Stripe with the transfer as its reference.
    expect(w.paid).toEqual([{ talentId: 'ada', month: '2026-11', reference: 'tr_1', by: 'Stripe' }]);
    // A later month carries nothing in again.
    w.add('ada', '2026-12', 1000);
    expect((await runMonth(w.deps, '2026-12')).payouts[0]).toMatchObject({ carriedInCents: 0, amountCents: 1000 });
  });

  it('pays nothing twice: a rerun, and a run that stopped after Stripe made the transfer', async () => {
    const w = world();
    w.connect('ada');
    w.connect('bo');
    w.add('ada', '2026-11', 1500);
    w.add('bo', '2026-11', 2500);
    await runMonth(w.deps, '2026-11');
    await runMonth(w.deps, '2026-11');
    expect(w.transfers.map((t) => t.amount)).toEqual([1500, 2500]);
    expect(w.paid.map((p) => p.reference)).toEqual(['tr_1', 'tr_2']);

    // Bo's December transfer went through at Stripe, but the run stopped before recording it.
    w.add('bo', '2026-12', 3000);
    const stopped = w.deps.store.putPayout;
    w.deps.store.putPayout = async (record, from) => {
      if (record.state === 'paid') throw new Error('the run stopped');
      return stopped(record, from);
    };
    await expect(runMonth(w.deps, '2026-12')).resolves.toMatchObject({ errors: 1 });
    expect(w.payouts.get('bo|2026-12')!.state).toBe('transferring');
    w.deps.store.putPayout = stopped;
    const [dec] = (await runMonth(w.deps, '2026-12')).payouts;
    expect(dec).toMatchObject({ state: 'paid', transferId: 'tr_3', attempts: 1 });
    expect(w.transfers).toHaveLength(3);

    // January's run stopped after recording the payout, before marking the statement: the rerun marks it.
    w.add('bo', '2027-01', 1200);
    const setPaid = w.deps.statements.setPaid;
    w.deps.statements.setPaid = async () => {
      throw new Error('the run stopped');
    };
    await runMonth(w.deps, '2027-01');
    w.deps.statements.setPaid = setPaid;
    expect(w.paid.filter((p) => p.month === '2027-01')).toEqual([]);
    await runMonth(w.deps, '2027-01');
    expect(w.paid.filter((p) => p.month === '2027-01')).toEqual([{ talentId: 'bo', month: '2027-01', reference: 'tr_4', by: 'Stripe' }]);
    expect(w.transfers).toHaveLength(4);
  });

  it('a refused transfer fails the payout with the reason and the PayoutsFailed metric; a retry uses a new key, as Stripe replays the refusal under the old one', async () => {
    const w = world();
    w.connect('ada');
    w.add('ada', '2026-11', 1500);
    w.faults.push({ code: 'balance_insufficient' });
    const [failed] = (await runMonth(w.deps, '2026-11')).payouts;
    expect(failed).toMatchObject({ state: 'failed', attempts: 1 });
    expect(failed!.failure).toContain("platform's Stripe balance");
    expect(logged.filter((l) => l.includes(`metric ${FAILURE_METRICS.payoutFailed}`))).toHaveLength(1);
    // The platform's balance is ours to fix: the talent is not emailed, and reads that it is ours,
    // never the console's instructions.
    expect(w.sent).toEqual([]);
    expect(talentPayoutView(w.payouts.get('ada|2026-11')!)).toMatchObject({ state: 'failed', failure: OURS_TO_FIX_MESSAGE });
    expect(payoutView(w.payouts.get('ada|2026-11')!).failure).toContain("platform's Stripe balance");
    // A rerun leaves it failed; the retry makes the transfer with the second attempt's key.
    expect((await runMonth(w.deps, '2026-11')).payouts[0]).toMatchObject({ state: 'failed' });
    await expect(w.stripe.transfers.create({ amount: 1500 } as never, { idempotencyKey: transferKeyOf('2026-11_ada', 1) })).rejects.toThrow('balance_insufficient');
    const retried = await retryPayout(w.deps, '2026-11_ada', ADMIN);
    expect(retried).toMatchObject({ state: 'paid', attempts: 2, transferId: 'tr_1' });
    expect([...w.answers.keys()]).toEqual(['payout:2026-11_ada', 'payout:2026-11_ada:2']);
    // The retry names the admin, once, on the payout and on the statement's audit; the talent's view omits it.
    expect(retried.actions).toEqual([{ action: 'retried', at: '2026-12-01T02:00:00.000Z', by: ADMIN.email, bySub: ADMIN.sub }]);
    expect(w.audits).toEqual([expect.objectContaining({ talentId: 'ada', by: ADMIN.email, bySub: ADMIN.sub, detail: 'Stripe transfer tr_1 of $15.00, retried from the console' })]);
    expect(talentPayoutView(retried).actions).toBeUndefined();
    await expect(retryPayout(w.deps, '2026-11_ada', ADMIN)).rejects.toThrow('already paid');
    expect(w.payouts.get('ada|2026-11')!.actions).toHaveLength(1);
  });

  it('emails the talent what to do when the refusal is theirs to fix, once per attempt', async () => {
    const w = world();
    w.connect('ada');
    w.add('ada', '2026-11', 1500);
    w.faults.push({ code: 'insufficient_capabilities_for_transfer' });
    await runMonth(w.deps, '2026-11');
    await runMonth(w.deps, '2026-11');
    expect(w.sent.map((m) => [m.to, m.subject])).toEqual([['ada@talent.example', 'Your Humanly payout for November 2026 did not go through']]);
    expect(w.sent[0]!.text).toContain('finish what Stripe still asks for');
    expect(talentPayoutView(w.payouts.get('ada|2026-11')!).failure).toContain('finish what Stripe still asks for');
  });

  it('waits for a payout account, emails the talent to set one up once, and pays once it is active', async () => {
    const w = world();
    w.add('cy', '2026-11', 2000);
    await runMonth(w.deps, '2026-11');
    await runMonth(w.deps, '2026-11');
    expect(w.payouts.get('cy|2026-11')).toMatchObject({ state: 'awaiting-account', amountCents: 2000 });
    expect(w.sent.map((m) => m.subject)).toEqual(['Set up payouts to receive your Humanly royalties']);
    w.connect('cy');
    w.setActive(false);
    expect((await runMonth(w.deps, '2026-11')).payouts[0]).toMatchObject({ state: 'awaiting-account' });
    w.setActive(true);
    expect((await runMonth(w.deps, '2026-11')).payouts[0]).toMatchObject({ state: 'paid', amountCents: 2000 });
    expect(w.sent).toHaveLength(1);
  });

  it('a payout email whose send failed leaves nothing behind: the next run sends it, once', async () => {
    const w = world();
    w.add('cy', '2026-11', 2000);
    const send = w.deps.send;
    w.deps.send = async () => Promise.reject(new Error('SES throttled'));
    expect((await runMonth(w.deps, '2026-11')).errors).toBe(1);
    w.deps.send = send;
    await runMonth(w.deps, '2026-11');
    await runMonth(w.deps, '2026-11');
    expect(w.sent.map((m) => m.subject)).toEqual(['Set up payouts to receive your Humanly royalties']);
  });

  it('records a payout made outside Stripe, refusing one already paid', async () => {
    const w = world();
    w.add('di', '2026-11', 2000);
    await runMonth(w.deps, '2026-11');
    const manual = await manualPayout(w.deps, '2026-11_di', { reference: 'WIRE-1', reason: 'Bank wire' }, ADMIN);
    expect(manual).toMatchObject({ state: 'manual', reference: 'WIRE-1', reason: 'Bank wire', amountCents: 2000 });
    expect(manual.actions).toEqual([{ action: 'marked-paid', at: '2026-12-01T02:00:00.000Z', by: ADMIN.email, bySub: ADMIN.sub }]);
    expect(w.paid).toEqual([{ talentId: 'di', month: '2026-11', reference: 'WIRE-1', by: 'admin@humanly.example' }]);
    expect(w.audits).toEqual([expect.objectContaining({ by: ADMIN.email, bySub: ADMIN.sub })]);
    await expect(manualPayout(w.deps, '2026-11_di', { reference: 'x', reason: 'y' }, ADMIN)).rejects.toThrow('already paid');
    await expect(manualPayout(w.deps, '2026-11_nobody', { reference: 'x', reason: 'y' }, ADMIN)).rejects.toThrow('no statement');
  });

  it('refuses a manual payout of a statement that pays nothing, writing nothing', async () => {
    const w = world();
    w.add('fa', '2026-11', 0);
    await expect(manualPayout(w.deps, '2026-11_fa', { reference: 'WIRE-2', reason: 'Bank wire' }, ADMIN)).rejects.toMatchObject({ status: 409, message: NOTHING_DUE_MESSAGE });
    expect(w.payouts.get('fa|2026-11')).toBeUndefined();
    expect(w.paid).toEqual([]);
  });

  it("a run started by an admin records the admin on the month's runs and on each payout it changes, once; the close's run names nobody", async () => {
    const w = world();
    w.connect('ada');
    w.add('ada', '2026-11', 1500);
    w.add('bo', '2026-11', 400);
    await runMonth(w.deps, '2026-11', ADMIN);
    const ran = { action: 'run', at: '2026-12-01T02:00:00.000Z', by: ADMIN.email, bySub: ADMIN.sub };
    // Transferring then paid: one action, not one per write.
    expect(w.payouts.get('ada|2026-11')).toMatchObject({ state: 'paid', actions: [ran] });
    expect(w.payouts.get('bo|2026-11')).toMatchObject({ state: 'carried', actions: [ran] });
    expect(w.audits).toEqual([expect.objectContaining({ talentId: 'ada', by: ADMIN.email, bySub: ADMIN.sub, detail: 'Stripe transfer tr_1 of $15.00, by a payout run from the console' })]);
    // A rerun changes nothing, so records nothing on the payouts; the month keeps every run.
    await runMonth(w.deps, '2026-11');
    expect(w.payouts.get('ada|2026-11')!.actions).toEqual([ran]);
    expect(w.runs.get('2026-11')).toEqual([{ at: '2026-12-01T02:00:00.000Z', by: ADMIN.email, bySub: ADMIN.sub }, { at: '2026-12-01T02:00:00.000Z' }]);
  });

  it('a statement with nothing due transfers nothing', async () => {
    const w = world();
    w.connect('ed');
    w.add('ed', '2026-11', 0);
    expect(await payStatement(w.deps, w.statements.get('ed|2026-11')!)).toMatchObject({ state: 'nothing-due' });
    expect(w.transfers).toEqual([]);
  });
});

describe('the reconciliation', () => {
  const payout = (talentId: string, state: PayoutRecord['state'], amountCents: number, extra: Partial<PayoutRecord> = {}): PayoutRecord => ({
    statementId: `2026-11_${talentId}`,
    talentId,
    month: '2026-11',
    statementCents: amountCents,
    carriedInCents: 0,
    amountCents,
    state,
    updatedAt: '2026-12-01T00:00:00Z',
    ...extra,
  });
  const transfer = (id: string, amount: number) => ({ id, amount, amount_reversed: 0, reversed: false }) as Stripe.Transfer;

  it('balances when statements = transfers + carried + failed + manual + awaiting and every transfer matches a payout', () => {
    const r = buildRun('2026-11', [statementOf('a', '2026-11', 1200), statementOf('b', '2026-11', 300)], [payout('a', 'paid', 1200, { transferId: 'tr_a' }), payout('b', 'carried', 300)], [transfer('tr_a', 1200)]);
    expect(r.reconciliation).toEqual({ state: 'balanced', differences: [] });
    expect(r.totals).toMatchObject({ statementsCents: 1500, transferredCents: 1200, carriedCents: 300, stripeTransfersCents: 1200 });
  });

  it('lists each difference in words: a failure, a transfer of another amount, one matching no payout, a statement without a payout', () => {
    const r = buildRun(
      '2026-11',
      [statementOf('a', '2026-11', 1200), statementOf('b', '2026-11', 2000), statementOf('c', '2026-11', 1500), statementOf('d', '2026-11', 1100)],
      [payout('a', 'paid', 1200, { transferId: 'tr_a' }), payout('b', 'failed', 2000, { failure: 'The bank said no.' }), payout('c', 'paid', 1500, { transferId: 'tr_c' })],
      [transfer('tr_a', 1000), transfer('tr_c', 1500), transfer('tr_x', 700)],
    );
    expect(r.reconciliation.state).toBe('differences');
    expect(r.reconciliation.differences).toEqual([
      '2026-11_d: statement $11.00 has no payout yet',
      '2026-11_b: payout of $20.00 failed: The bank said no.',
      '2026-11_a: payout $12.00, transfer $10.00',
      'Stripe transfer tr_x of $7.00 matches no payout of 2026-11',
      'Totals: statements $58.00 + carried in $0.00 = $58.00, payouts account for $47.00',
      "Totals: transferred $27.00, Stripe's transfers $32.00",
    ]);
  });
});

describe('the connected account state', () => {
  it('is active only when Stripe enables payouts and transfers; restricted when submitted and disabled; onboarding otherwise', () => {
    const account = (p: Partial<Stripe.Account>) => ({ id: 'acct_1', ...p }) as Stripe.Account;
    expect(connectStatusOf(account({ payouts_enabled: true, capabilities: { transfers: 'active' }, requirements: { currently_due: [] } as never, external_accounts: { data: [{ last4: '6789' }] } as never }))).toEqual({
      state: 'active',
      requirementsDue: [],
      bankLast4: '6789',
      payoutsEnabled: true,
    });
    expect(connectStatusOf(account({ payouts_enabled: false, details_submitted: false, capabilities: { transfers: 'inactive' }, requirements: { currently_due: ['individual.dob.day'], disabled_reason: 'requirements.past_due' } as never }))).toMatchObject({
      state: 'onboarding',
      requirementsDue: ['individual.dob.day'],
      payoutsEnabled: false,
    });
    expect(connectStatusOf(account({ payouts_enabled: false, details_submitted: true, capabilities: { transfers: 'inactive' }, requirements: { currently_due: [], disabled_reason: 'rejected.fraud' } as never }))).toMatchObject({
      state: 'restricted',
      disabledReason: 'rejected.fraud',
    });
  });
});
