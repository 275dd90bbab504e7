// The RoyaltyClose state machine as the stack deploys it, run by the twin's runner. Its two task
// functions are the real services (functions/royalties/close-*/service.ts) over an in-memory
// royalty store: a normal month, a rerun that changes nothing and emails no one twice, a late
// accrual landing on the next month, a task failure retried, a lasting one reported (the
// StatementsNotClosed metric) while the other talent close and then failing the execution, a
// closed statement that no longer matches its accruals reported at once, a month that has not
// ended refused before anything is closed, and a month before the latest statement left alone.
// Every run that got past PlanClose announces Royalties.MonthClosed (the payout run follows it),
// a failing one too, before it fails.
import { App, Stack } from 'aws-cdk-lib';
import { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import type { AccrualLine } from '../../events/royalties';
import { CLOSE_CONCURRENCY, CLOSE_FAILURES, NOT_CLOSED_ERROR, royaltyCloseWorkflow } from '../../infra/lib/workflows/royalty-close';
import { StateMachineRunner } from '../../infra/local/stepfunctions';
import { Resolver, resourcesOfType, stateMachineDefinition, type CfnTemplate } from '../../infra/local/template';
import { closeTalentMonth, CloseTalentMonthInput, type CloseTalentMonthDeps } from '../../functions/royalties/steps/close-talent-month/service';
import { CloseInput, planClose } from '../../functions/royalties/steps/close-plan/service';
import { reportNotClosed, ReportNotClosedInput } from '../../functions/royalties/steps/report-not-closed/service';
import { announceClose, AnnounceCloseInput } from '../../functions/royalties/steps/announce-close/service';
import type { StatementRecord, StoredAccrual, StoredGivenBack, StoredTakenBack } from '../../functions/royalties/store';
import type { Email } from '../../functions/shared/email';

const MACHINE = 'arn:aws:states:us-east-1:123456789012:stateMachine:RoyaltyClose';
const STEPS = ['plan-close', 'close-talent-month', 'report-not-closed', 'announce-close'] as const;
type Step = (typeof STEPS)[number];
const arn = (step: Step) => `arn:aws:lambda:us-east-1:123456789012:function:${step}`;

interface State {
  Type: string;
  Retry?: Array<{ ErrorEquals: string[]; MaxAttempts?: number }>;
  Catch?: Array<{ ErrorEquals: string[]; Next: string; ResultPath?: string }>;
  MaxConcurrency?: number;
  ItemProcessor?: { StartAt: string; States: Record<string, State> };
  [field: string]: unknown;
}

function synthesizeDefinition(): { StartAt: string; States: Record<string, State> } {
  const app = new App({ builtinCloudFormationValidation: false });
  const stack = new Stack(app, 'RoyaltyCloseWorkflow');
  const fn = (step: Step) => LambdaFunction.fromFunctionArn(stack, step, arn(step));
  new StateMachine(stack, 'Machine', { ...royaltyCloseWorkflow(stack, 'States', { planClose: fn('plan-close'), closeTalentMonth: fn('close-talent-month'), reportNotClosed: fn('report-not-closed'), announceClose: fn('announce-close') }) });
  const template = app.synth().getStackByName(stack.stackName).template as CfnTemplate;
  const [[id, resource]] = resourcesOfType(template, 'AWS::StepFunctions::StateMachine');
  return stateMachineDefinition(new Resolver(template), id, resource) as { StartAt: string; States: Record<string, State> };
}
const DEFINITION = synthesizeDefinition();

/** The royalty store's part the close uses, in memory, with the same conditions as the table's. */
function memoryRoyalties() {
  const accruals = new Map<string, StoredAccrual>(); // by talentId|licenseId
  const statements = new Map<string, StatementRecord>(); // by talentId|month
  const takenBack = new Map<string, StoredTakenBack>(); // by talentId|licenseId
  const givenBack = new Map<string, StoredGivenBack>(); // by talentId|licenseId
  const clone = <T>(v: T): T => structuredClone(v);
  const inRange = (a: StoredAccrual, talentId: string, from: string | undefined, to: string) => a.talentId === talentId && a.month >= (from ?? '') && a.month <= to;
  const store: CloseTalentMonthDeps['royalties'] = {
    async openAccruals(talentId, toMonth, _plan, fromMonth) {
      return [...accruals.values()].filter((a) => inRange(a, talentId, fromMonth, toMonth) && !a.statementMonth).map(clone);
    },
    async claimedAccruals(talentId, month, fromMonth) {
      return [...accruals.values()].filter((a) => inRange(a, talentId, fromMonth, month) && a.statementMonth === month).map(clone);
    },
    async claim(talentId, accrual, month) {
      const a = accruals.get(`${talentId}|${accrual.licenseId}`);
      if (!a || (a.statementMonth && a.statementMonth !== month)) return false;
      a.statementMonth = month;
      return true;
    },
    async getStatement(talentId, month) {
      const s = statements.get(`${talentId}|${month}`);
      return s && clone(s);
    },
    async latestStatementBefore(talentId, month) {
      return clone([...statements.values()].filter((s) => s.talentId === talentId && s.month < month).sort((a, b) => (a.month < b.month ? 1 : -1))[0]);
    },
    async listStatements(talentId) {
      return [...statements.values()].filter((s) => s.talentId === talentId).sort((a, b) => (a.month < b.month ? 1 : -1)).map(clone);
    },
    async putStatement(s) {
      if (statements.has(`${s.talentId}|${s.month}`)) return false;
      statements.set(`${s.talentId}|${s.month}`, clone(s));
      return true;
    },
    async getAccrual(talentId, _month, licenseId) {
      const a = accruals.get(`${talentId}|${licenseId}`);
      return a && clone(a);
    },
    async openTakenBack(talentId, before) {
      return [...takenBack.values()].filter((t) => t.talentId === talentId && !t.claimedBy && t.at < before).map(clone);
    },
    async claimTakenBack(talentId, licenseId, month, counted) {
      const t = takenBack.get(`${talentId}|${licenseId}`);
      if (!t || (t.claimedBy && t.claimedBy !== month)) return false;
      Object.assign(t, { claimedBy: month, statementMonth: t.statementMonth ?? counted.statementMonth, royaltyMicros: t.royaltyMicros ?? counted.royaltyMicros });
      return true;
    },
    async claimedTakenBack(talentId, month) {
      return [...takenBack.values()]
        .filter((t) => t.talentId === talentId && t.claimedBy === month)
        .map((t) => ({ licenseId: t.licenseId, at: t.at, statementMonth: t.statementMonth!, royaltyMicros: t.royaltyMicros!, reason: t.reason }));
    },
    async getTakenBack(talentId, licenseId) {
      const t = takenBack.get(`${talentId}|${licenseId}`);
      return t && clone(t);
    },
    async openGivenBack(talentId, before) {
      return [...givenBack.values()].filter((g) => g.talentId === talentId && !g.claimedBy && g.at < before).map(clone);
    },
    async claimGivenBack(talentId, licenseId, month, counted) {
      const g = givenBack.get(`${talentId}|${licenseId}`);
      if (!g || (g.claimedBy && g.claimedBy !== month)) return false;
      Object.assign(g, { claimedBy: month, statementMonth: g.statementMonth ?? counted.statementMonth, royaltyMicros: g.royaltyMicros ?? counted.royaltyMicros });
      return true;
    },
    async claimedGivenBack(talentId, month) {
      return [...givenBack.values()]
        .filter((g) => g.talentId === talentId && g.claimedBy === month)
        .map((g) => ({ licenseId: g.licenseId, at: g.at, statementMonth: g.statementMonth!, royaltyMicros: g.royaltyMicros!, reason: g.reason }));
    },
    async markNotified(talentId, month, at) {
      const s = statements.get(`${talentId}|${month}`);
      if (!s || s.notifiedAt) return false;
      s.notifiedAt = at;
      return true;
    },
  };
  let n = 0;
  const add = (talentId: string, at: string, creditValueMicros = 437_500, royaltyPlan: AccrualLine['royaltyPlan'] = 'standard-tiers') => {
    const licenseId = `lic_${String(++n).padStart(22, '0')}`;
    accruals.set(`${talentId}|${licenseId}`, { licenseId, generationId: `gen-${n}`, at, month: at.slice(0, 7), creditValueMicros, royaltyPlan, talentId, accountId: 'client-1' });
    return licenseId;
  };
  /** A refund took back the license's royalty at `at`. */
  const takeBack = (talentId: string, licenseId: string, at: string) => {
    const a = accruals.get(`${talentId}|${licenseId}`)!;
    takenBack.set(`${talentId}|${licenseId}`, { talentId, licenseId, accrualMonth: a.month, at, reason: "The client's payment was refunded", key: `refund:ch_${licenseId}:900`, accountId: 'client-1' });
  };
  /** A license revoked for the client's breach after report `reference`: its royalty taken back at `at`. */
  const revoke = (talentId: string, licenseId: string, reference: string, at: string) => {
    const a = accruals.get(`${talentId}|${licenseId}`)!;
    takenBack.set(`${talentId}|${licenseId}`, { talentId, licenseId, accrualMonth: a.month, at, reason: `Royalty taken back: license ${licenseId} revoked after report ${reference}`, key: `report:${reference}`, accountId: 'client-1' });
  };
  /** The license reinstated on appeal at `at`: its royalty given back. */
  const reinstate = (talentId: string, licenseId: string, reference: string, at: string) => {
    givenBack.set(`${talentId}|${licenseId}`, { talentId, licenseId, at, reason: `Royalty given back: license ${licenseId} reinstated on appeal of report ${reference}`, key: `report:${reference}` });
  };
  return { store, add, takeBack, revoke, reinstate, statements, accruals };
}

const TALENT = { 'maya-chen': { name: 'Maya Chen', royaltyPlan: 'founding-35', email: 'maya@example.com' }, 'jon-reyes': { name: 'Jon Reyes', royaltyPlan: 'standard-tiers', email: undefined } } as const;
type Mock = (payload: unknown, attempt: number) => unknown;

let runner: StateMachineRunner | undefined;
afterEach(async () => {
  await runner?.stopAll();
  runner = undefined;
});

function world(catalog: string[] = Object.keys(TALENT)) {
  const data = memoryRoyalties();
  const sent: Array<{ to: string; email: Email }> = [];
  const announced: Array<{ type: string; detail: unknown }> = [];
  let clock = new Date('2026-12-01T01:00:05Z');
  const deps: CloseTalentMonthDeps = {
    royalties: data.store,
    talent: async (id) => {
      const t = TALENT[id as keyof typeof TALENT];
      return t && { name: t.name, royaltyPlan: t.royaltyPlan, email: async () => t.email };
    },
    send: async (to, email) => void sent.push({ to, email }),
    siteUrl: 'https://humanly.example',
    promotionalCapMicros: 25_000_000,
    now: () => clock,
  };
  const real: Record<Step, Mock> = {
    'plan-close': (p) => planClose({ talentIds: async () => catalog, now: () => clock }, CloseInput.parse((p as { input: unknown }).input)),
    'close-talent-month': (p) => closeTalentMonth(deps, CloseTalentMonthInput.parse(p)),
    'report-not-closed': (p) => reportNotClosed(ReportNotClosedInput.parse(p)),
    'announce-close': (p) => announceClose({ publish: async (type, detail) => void announced.push({ type, detail }) }, AnnounceCloseInput.parse(p)),
  };
  /** Runs the machine once with `input`; `faults` may throw before the real step runs. */
  const run = async (input: unknown, faults: Partial<Record<Step, (payload: unknown, attempt: number) => void>> = {}) => {
    const calls: Array<{ step: Step; payload: unknown }> = [];
    const attempts = new Map<string, number>();
    runner = new StateMachineRunner({
      retryIntervalScale: 0.001,
      async invokeLambda(fn, payload) {
        const step = fn.split(':').pop() as Step;
        if (!STEPS.includes(step)) throw new Error(`unexpected function ${fn}`);
        const key = `${step}|${JSON.stringify(payload)}`;
        const attempt = (attempts.get(key) ?? 0) + 1;
        attempts.set(key, attempt);
        calls.push({ step, payload });
        faults[step]?.(payload, attempt);
        return real[step](payload, attempt);
      },
    });
    runner.register('RoyaltyClose', MACHINE, DEFINITION);
    const { executionArn } = runner.startExecution(MACHINE, input);
    const done = await runner.waitForExecution(executionArn, 20_000);
    await runner.stopAll();
    return { done, calls, of: (step: Step) => calls.filter((c) => c.step === step) };
  };
  return { ...data, sent, announced, run, setClock: (iso: string) => (clock = new Date(iso)) };
}

const scheduled = (time: string) => ({ version: '0', id: 'e1', 'detail-type': 'Scheduled Event', source: 'aws.events', time, region: 'us-east-1', resources: [], detail: {} });

describe('RoyaltyClose state machine', () => {
  test('the definition: PlanClose, then a Map of CloseTalentMonth a few at a time; unfixable errors never retried, others retried with backoff; a lasting failure reported, then the execution fails', () => {
    expect(DEFINITION.StartAt).toBe('PlanClose');
    const map = DEFINITION.States.CloseEachTalent;
    expect(map).toMatchObject({ Type: 'Map', ItemsPath: '$.plan.talentIds', MaxConcurrency: CLOSE_CONCURRENCY });
    const close = map.ItemProcessor!.States.CloseTalentMonth;
    for (const task of [DEFINITION.States.PlanClose, close]) {
      expect(task.Retry?.[0]).toEqual({ ErrorEquals: [...CLOSE_FAILURES], MaxAttempts: 0 });
      expect(task.Retry?.map((r) => r.ErrorEquals[0])).toEqual(['StatementMismatch', 'Lambda.ServiceException', 'States.TaskFailed']);
    }
    expect(CLOSE_FAILURES).toEqual(expect.arrayContaining(['StatementMismatch', 'MonthNotEnded', 'ZodError']));
    // PlanClose has no Catch: a month refused or bad input fails the execution before any talent is closed.
    expect(DEFINITION.States.PlanClose.Catch).toBeUndefined();
    // A talent's close that fails for good (after its retries) is reported, and the Map goes on.
    expect(close.Catch).toEqual([{ ErrorEquals: ['States.ALL'], Next: 'ReportNotClosed', ResultPath: '$.failure' }]);
    expect(map.ItemProcessor!.States.ReportNotClosed).toMatchObject({ Type: 'Task', End: true });
    expect(DEFINITION.States.NotClosed).toMatchObject({ Type: 'Fail', Error: NOT_CLOSED_ERROR });
  });

  test('a normal month: the Scheduled Event of 1 December closes November for every talent, each statement emailed once when an address is known', async () => {
    const w = world();
    // Maya (founding): 2 Starter licenses at 35% = 2 x 153,125 = 306,250 -> 30 cents, 6,250 carried.
    w.add('maya-chen', '2026-11-03T10:00:00.000Z', 437_500, 'founding-35');
    w.add('maya-chen', '2026-11-30T23:59:59.000Z', 437_500, 'founding-35');
    // Jon (standard): 3 Pro licenses at 20% = 3 x 72,666 = 217,998 -> 21 cents, 7,998 carried.
    for (const day of ['05', '06', '07']) w.add('jon-reyes', `2026-11-${day}T08:00:00.000Z`, 363_333);
    // December's license is not November's.
    w.add('jon-reyes', '2026-12-01T00:30:00.000Z', 363_333);

    const r = await w.run(scheduled('2026-12-01T01:00:00Z'));
    expect(r.done).toMatchObject({ status: 'SUCCEEDED' });
    expect(r.of('plan-close')).toHaveLength(1);
    expect(r.of('close-talent-month').map((c) => c.payload)).toEqual([{ talentId: 'jon-reyes', month: '2026-11' }, { talentId: 'maya-chen', month: '2026-11' }]);
    expect(r.done.output).toEqual({ month: '2026-11', talent: 2, results: [{ talentId: 'jon-reyes', month: '2026-11', closed: { outcome: 'closed' } }, { talentId: 'maya-chen', month: '2026-11', closed: { outcome: 'closed' } }], notClosed: false });

    const maya = w.statements.get('maya-chen|2026-11')!;
    expect(maya).toMatchObject({ id: '2026-11_maya-chen', talentName: 'Maya Chen', fromMonth: '2026-11', closedAt: '2026-12-01T01:00:05.000Z', audit: [] });
    expect(maya.totals).toMatchObject({ licenses: 2, grossMicros: 875_000, royaltyMicros: 306_250, royaltyCents: 30, carriedOutMicros: 6_250 });
    expect(w.statements.get('jon-reyes|2026-11')!.totals).toMatchObject({ licenses: 3, royaltyMicros: 217_998, royaltyCents: 21, carriedOutMicros: 7_998 });
    expect([...w.accruals.values()].filter((a) => a.month === '2026-12').map((a) => a.statementMonth)).toEqual([undefined]);

    // Maya has an address: one email, the month and amount in it; Jon has none: no email, no failure.
    expect(w.sent.map((s) => [s.to, s.email.subject])).toEqual([['maya@example.com', 'Your Humanly statement for November 2026 is ready']]);
    expect(w.sent[0].email.text).toContain('$0.30');
    expect(w.sent[0].email.text).toContain('https://humanly.example/talent-portal');
    expect(w.sent[0].email.html).toContain('November 2026');
    expect(maya.notifiedAt).toBe('2026-12-01T01:00:05.000Z');
    // The payout run follows: November is announced once.
    expect(w.announced).toEqual([{ type: 'Royalties.MonthClosed', detail: { version: 1, month: '2026-11' } }]);
  });

  test('royalties taken back for refunds come off the next statement, never below zero; the rest is absorbed, and a rerun agrees', async () => {
    const w = world();
    // November: Maya (founding 35%) earns 3 x 153,125 = 459,375 -> 45 cents, 9,375 carried.
    const paidOut = ['03', '04', '05'].map((day) => w.add('maya-chen', `2026-11-${day}T10:00:00.000Z`, 437_500, 'founding-35'));
    expect((await w.run(scheduled('2026-12-01T01:00:00Z'))).done.status).toBe('SUCCEEDED');
    expect(w.statements.get('maya-chen|2026-11')!.totals).toMatchObject({ royaltyCents: 45, carriedOutMicros: 9_375 });

    // December: one new license (153,125), and a refund takes back two of November's (306,250)
    // and the new one of December's (its own statement's line): 153,125 + 9,375 carried in =
    // 162,500 available, 459,375 owed -> 162,500 taken, 296,875 absorbed, nothing paid or carried.
    const december = w.add('maya-chen', '2026-12-10T10:00:00.000Z', 437_500, 'founding-35');
    w.takeBack('maya-chen', paidOut[0]!, '2026-12-12T09:00:00.000Z');
    w.takeBack('maya-chen', paidOut[1]!, '2026-12-12T09:00:00.000Z');
    w.takeBack('maya-chen', december, '2026-12-20T09:00:00.000Z');
    // Taken back after December's close ran: waits for January's statement.
    w.takeBack('maya-chen', paidOut[2]!, '2027-01-01T02:00:00.000Z');
    w.setClock('2027-01-01T01:00:03Z');
    expect((await w.run(scheduled('2027-01-01T01:00:00Z'))).done.status).toBe('SUCCEEDED');
    const dec = w.statements.get('maya-chen|2026-12')!;
    expect(dec.totals).toMatchObject({
      licenses: 1,
      royaltyMicros: 153_125,
      carriedInMicros: 9_375,
      royaltyCents: 0,
      carriedOutMicros: 0,
      takenBack: { licenses: 3, owedMicros: 459_375, appliedMicros: 162_500, absorbedMicros: 296_875 },
    });
    const lines = await w.store.claimedTakenBack('maya-chen', '2026-12');
    expect(lines.map((l) => [l.licenseId, l.statementMonth, l.royaltyMicros]).sort()).toEqual(
      [
        [paidOut[0], '2026-11', 153_125],
        [paidOut[1], '2026-11', 153_125],
        [december, '2026-12', 153_125],
      ].sort(),
    );

    // A rerun of December (after the last refund) rebuilds the same figures; January takes back the last one from what it earns.
    w.setClock('2027-01-02T09:00:00Z');
    expect((await w.run({ month: '2026-12' })).done.output).toMatchObject({ results: [{ talentId: 'jon-reyes', closed: { outcome: 'nothing' } }, { talentId: 'maya-chen', closed: { outcome: 'unchanged' } }] });
    w.add('maya-chen', '2027-01-05T10:00:00.000Z', 1_000_000, 'founding-35');
    w.setClock('2027-02-01T01:00:03Z');
    expect((await w.run(scheduled('2027-02-01T01:00:00Z'))).done.status).toBe('SUCCEEDED');
    // 350,000 earned - 153,125 taken back = 196,875 -> 19 cents, 6,875 carried.
    expect(w.statements.get('maya-chen|2027-01')!.totals).toMatchObject({ royaltyMicros: 350_000, royaltyCents: 19, carriedOutMicros: 6_875, takenBack: { licenses: 1, owedMicros: 153_125, appliedMicros: 153_125, absorbedMicros: 0 } });
  });

  test('a royalty taken back for a revocation is given back on appeal: what the take-back took, never what Humanly absorbed; a rerun agrees', async () => {
    const w = world();
    // November: Maya (founding 35%) earns 2 x 153,125 = 306,250 -> 30 cents, 6,250 carried.
    const [a, b] = ['03', '04'].map((day) => w.add('maya-chen', `2026-11-${day}T10:00:00.000Z`, 437_500, 'founding-35'));
    expect((await w.run(scheduled('2026-12-01T01:00:00Z'))).done.status).toBe('SUCCEEDED');

    // December: one license (350,000) + 6,250 carried; both of November's revoked for a breach
    // (306,250 owed, all applied), the second one reinstated in the same month: 153,125 given back.
    w.add('maya-chen', '2026-12-10T10:00:00.000Z', 1_000_000, 'founding-35');
    w.revoke('maya-chen', a!, 'RPT-AAAAAA', '2026-12-11T09:00:00.000Z');
    w.revoke('maya-chen', b!, 'RPT-BBBBBB', '2026-12-12T09:00:00.000Z');
    w.reinstate('maya-chen', b!, 'RPT-BBBBBB', '2026-12-20T09:00:00.000Z');
    w.setClock('2027-01-01T01:00:03Z');
    expect((await w.run(scheduled('2027-01-01T01:00:00Z'))).done.status).toBe('SUCCEEDED');
    // 350,000 + 6,250 - 306,250 + 153,125 = 203,125 -> 20 cents, 3,125 carried.
    expect(w.statements.get('maya-chen|2026-12')!.totals).toMatchObject({
      royaltyCents: 20,
      carriedOutMicros: 3_125,
      takenBack: { licenses: 2, owedMicros: 306_250, appliedMicros: 306_250, absorbedMicros: 0 },
      givenBack: { licenses: 1, royaltyMicros: 153_125 },
    });
    expect(await w.store.claimedGivenBack('maya-chen', '2026-12')).toEqual([
      { licenseId: b, at: '2026-12-20T09:00:00.000Z', statementMonth: '2026-12', royaltyMicros: 153_125, reason: `Royalty given back: license ${b} reinstated on appeal of report RPT-BBBBBB` },
    ]);
    w.setClock('2027-01-02T09:00:00Z');
    expect((await w.run({ month: '2026-12' })).done.output).toMatchObject({ results: [{ talentId: 'jon-reyes', closed: { outcome: 'nothing' } }, { talentId: 'maya-chen', closed: { outcome: 'unchanged' } }] });

    // January: nothing earned; the first license is reinstated: its take-back took all of its 153,125 on December's statement.
    w.reinstate('maya-chen', a!, 'RPT-AAAAAA', '2027-01-15T09:00:00.000Z');
    w.setClock('2027-02-01T01:00:03Z');
    expect((await w.run(scheduled('2027-02-01T01:00:00Z'))).done.status).toBe('SUCCEEDED');
    expect(w.statements.get('maya-chen|2027-01')!.totals).toMatchObject({ licenses: 0, royaltyCents: 15, carriedOutMicros: 6_250, givenBack: { licenses: 1, royaltyMicros: 153_125 } });
  });

  test('a royalty absorbed by Humanly is not given back', async () => {
    const w = world();
    // November: one license, 153,125 -> 15 cents, 3,125 carried. December earns nothing of its own.
    const a = w.add('maya-chen', '2026-11-03T10:00:00.000Z', 437_500, 'founding-35');
    expect((await w.run(scheduled('2026-12-01T01:00:00Z'))).done.status).toBe('SUCCEEDED');
    // December: a tiny license (35) + 3,125 carried = 3,160 available; 153,125 owed -> 3,160 taken, the rest absorbed.
    w.add('maya-chen', '2026-12-10T10:00:00.000Z', 100, 'founding-35');
    w.revoke('maya-chen', a, 'RPT-CCCCCC', '2026-12-11T09:00:00.000Z');
    w.setClock('2027-01-01T01:00:03Z');
    expect((await w.run(scheduled('2027-01-01T01:00:00Z'))).done.status).toBe('SUCCEEDED');
    expect(w.statements.get('maya-chen|2026-12')!.totals.takenBack).toEqual({ licenses: 1, owedMicros: 153_125, appliedMicros: 3_160, absorbedMicros: 149_965 });
    // Reinstated in January: only the 3,160 the talent lost comes back.
    w.reinstate('maya-chen', a, 'RPT-CCCCCC', '2027-01-15T09:00:00.000Z');
    w.setClock('2027-02-01T01:00:03Z');
    expect((await w.run(scheduled('2027-02-01T01:00:00Z'))).done.status).toBe('SUCCEEDED');
    expect(w.statements.get('maya-chen|2027-01')!.totals).toMatchObject({ royaltyCents: 0, carriedOutMicros: 3_160, givenBack: { licenses: 1, royaltyMicros: 3_160 } });
  });

  test('a rerun (the same schedule, or an operator\'s { month }) writes nothing and emails no one again; a late accrual lands on the next month', async () => {
    const w = world();
    w.add('maya-chen', '2026-11-03T10:00:00.000Z', 437_500, 'founding-35');
    expect((await w.run(scheduled('2026-12-01T01:00:00Z'))).done.status).toBe('SUCCEEDED');
    const closed = structuredClone(w.statements.get('maya-chen|2026-11'));
    w.setClock('2026-12-02T09:00:00Z');

    // A license issued in November but delivered after the close.
    const late = w.add('maya-chen', '2026-11-30T23:59:30.000Z', 437_500, 'founding-35');
    for (const input of [scheduled('2026-12-01T01:00:00Z'), { month: '2026-11' }]) {
      const again = await w.run(input);
      expect(again.done.status).toBe('SUCCEEDED');
      expect(again.done.output).toMatchObject({ month: '2026-11', results: [{ talentId: 'jon-reyes', closed: { outcome: 'nothing' } }, { talentId: 'maya-chen', closed: { outcome: 'unchanged' } }] });
    }
    expect(w.statements.get('maya-chen|2026-11')).toEqual(closed);
    expect(w.sent).toHaveLength(1);
    expect(w.accruals.get(`maya-chen|${late}`)!.statementMonth).toBeUndefined();

    // November paid 153,125 -> 15 cents and carried 3,125. December's close claims the late license:
    // 153,125 + 3,125 carried in = 156,250 -> 15 cents, 6,250 carried.
    w.setClock('2027-01-01T01:00:03Z');
    expect((await w.run(scheduled('2027-01-01T01:00:00Z'))).done.status).toBe('SUCCEEDED');
    const dec = w.statements.get('maya-chen|2026-12')!;
    expect(dec.fromMonth).toBe('2026-11');
    expect(dec.totals).toMatchObject({ licenses: 1, royaltyMicros: 153_125, carriedInMicros: 3_125, royaltyCents: 15, carriedOutMicros: 6_250 });
    expect(w.accruals.get(`maya-chen|${late}`)!.statementMonth).toBe('2026-12');
    expect(w.sent.map((s) => s.email.subject)).toEqual(['Your Humanly statement for November 2026 is ready', 'Your Humanly statement for December 2026 is ready']);
  });

  test('a task failure is retried with backoff and the close completes once; one that lasts is reported for that talent, the others close, and the execution fails', async () => {
    const w = world();
    w.add('maya-chen', '2026-11-03T10:00:00.000Z');
    const flaky = await w.run(scheduled('2026-12-01T01:00:00Z'), {
      'close-talent-month': (p, attempt) => {
        if ((p as { talentId: string }).talentId === 'maya-chen' && attempt === 1) throw Object.assign(new Error('throttled'), { name: 'ProvisionedThroughputExceededException' });
      },
    });
    expect(flaky.done.status).toBe('SUCCEEDED');
    expect(flaky.of('close-talent-month').filter((c) => (c.payload as { talentId: string }).talentId === 'maya-chen')).toHaveLength(2);
    expect(flaky.of('report-not-closed')).toEqual([]);
    expect(w.statements.size).toBe(1);
    expect(w.sent).toHaveLength(1);

    // Another month: Jon's close cannot reach the table; Maya's still closes.
    const v = world();
    v.add('maya-chen', '2026-11-20T10:00:00.000Z', 437_500, 'founding-35');
    v.add('jon-reyes', '2026-11-21T10:00:00.000Z');
    const down = await v.run(scheduled('2026-12-01T01:00:00Z'), {
      'close-talent-month': (p) => {
        if ((p as { talentId: string }).talentId === 'jon-reyes') throw new Error('the table is unreachable');
      },
    });
    expect(down.done).toMatchObject({ status: 'FAILED', error: NOT_CLOSED_ERROR });
    // Announced before failing: Maya's closed statement is paid without waiting for Jon's.
    expect(v.announced).toEqual([{ type: 'Royalties.MonthClosed', detail: { version: 1, month: '2026-11' } }]);
    // TASK_RETRY: the first attempt and three retries, then the report.
    expect(down.of('close-talent-month').filter((c) => (c.payload as { talentId: string }).talentId === 'jon-reyes')).toHaveLength(4);
    expect(down.of('report-not-closed').map((c) => c.payload)).toEqual([{ talentId: 'jon-reyes', month: '2026-11', error: 'Error' }]);
    expect(v.statements.has('maya-chen|2026-11')).toBe(true);
    expect(v.statements.has('jon-reyes|2026-11')).toBe(false);
    // The rerun, once the table is back, closes Jon's and checks Maya's.
    const again = await v.run(scheduled('2026-12-01T01:00:00Z'));
    expect(again.done.status).toBe('SUCCEEDED');
    expect(again.done.output).toMatchObject({ results: [{ talentId: 'jon-reyes', closed: { outcome: 'closed' } }, { talentId: 'maya-chen', closed: { outcome: 'unchanged' } }], notClosed: false });
  });

  test('a closed statement that no longer matches its claimed accruals is reported at once, is not rewritten, and fails the execution', async () => {
    const w = world();
    w.add('maya-chen', '2026-11-03T10:00:00.000Z');
    await w.run(scheduled('2026-12-01T01:00:00Z'));
    // Someone changed a claimed accrual's value after the close.
    const [accrual] = [...w.accruals.values()];
    accrual.creditValueMicros = 1;
    const stored = structuredClone(w.statements.get('maya-chen|2026-11'));
    const r = await w.run({ month: '2026-11' });
    expect(r.done).toMatchObject({ status: 'FAILED', error: NOT_CLOSED_ERROR });
    expect(r.of('close-talent-month').filter((c) => (c.payload as { talentId: string }).talentId === 'maya-chen')).toHaveLength(1);
    expect(r.of('report-not-closed').map((c) => c.payload)).toEqual([{ talentId: 'maya-chen', month: '2026-11', error: 'StatementMismatch' }]);
    expect(w.statements.get('maya-chen|2026-11')).toEqual(stored);
  });

  test('a month that has not ended (UTC) is refused before any talent is closed: an operator\'s month, or a schedule time in the future', async () => {
    const w = world();
    w.setClock('2026-11-30T23:59:59.999Z');
    w.add('maya-chen', '2026-11-03T10:00:00.000Z', 437_500, 'founding-35');
    for (const input of [{ month: '2026-11' }, { month: '2027-02' }, scheduled('2026-12-01T01:00:00Z')]) {
      const r = await w.run(input);
      expect(r.done).toMatchObject({ status: 'FAILED', error: 'MonthNotEnded' });
      expect(r.done.cause).toContain('has not ended');
      // Never retried, and no talent's close started.
      expect(r.of('plan-close')).toHaveLength(1);
      expect(r.of('close-talent-month')).toEqual([]);
      expect(r.of('announce-close')).toEqual([]);
    }
    expect(w.statements.size).toBe(0);
    expect([...w.accruals.values()].map((a) => a.statementMonth)).toEqual([undefined]);
    // A millisecond later November has ended.
    w.setClock('2026-12-01T00:00:00.000Z');
    expect((await w.run({ month: '2026-11' })).done.status).toBe('SUCCEEDED');
    expect(w.statements.get('maya-chen|2026-11')!.totals.licenses).toBe(1);
  });

  test('a month before the talent\'s latest statement is not closed after it (its carry has gone on); the accrual stays open', async () => {
    const w = world();
    w.add('maya-chen', '2026-11-03T10:00:00.000Z', 437_500, 'founding-35');
    await w.run(scheduled('2026-12-01T01:00:00Z'));
    // A September license written after November closed (more than a month late), and an operator's run of September.
    const stray = w.add('maya-chen', '2026-09-30T12:00:00.000Z', 437_500, 'founding-35');
    const r = await w.run({ month: '2026-09' });
    expect(r.done.status).toBe('SUCCEEDED');
    expect(r.done.output).toMatchObject({ month: '2026-09', results: [{ talentId: 'jon-reyes', closed: { outcome: 'nothing' } }, { talentId: 'maya-chen', closed: { outcome: 'later-statement' } }] });
    expect([...w.statements.keys()]).toEqual(['maya-chen|2026-11']);
    expect(w.accruals.get(`maya-chen|${stray}`)!.statementMonth).toBeUndefined();
  });

  test('a catalog without talent closes nothing and succeeds', async () => {
    const r = await world([]).run(scheduled('2026-12-01T01:00:00Z'));
    expect(r.done).toMatchObject({ status: 'SUCCEEDED', output: { month: '2026-11', talent: 0, results: [], notClosed: false } });
    expect(r.of('close-talent-month')).toEqual([]);
  });

  test('bad input fails at once with what is wrong', async () => {
    const w = world();
    const r = await w.run({ month: '2026-13' });
    expect(r.done.status).toBe('FAILED');
    expect(r.done.error).toBe('ZodError');
    expect(r.of('plan-close')).toHaveLength(1);
  });
});
