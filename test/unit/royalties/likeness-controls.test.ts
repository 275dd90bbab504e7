// The talent's likeness controls with in-memory parts (docs/royalties.md#likeness): the state in
// words the portal reads, pause and resume, a removal's refusals (a contract, a double request,
// founding talent without the confirmation), its notice and cancellation, and the hourly
// schedule that carries it out once.
import type { LikenessControls } from '../../../events/generations';
import { LikenessRemovedV1 } from '../../../events/likeness-events';
import {
  ALREADY_REMOVED_MESSAGE,
  FOUNDING_REMOVAL_WARNING,
  CONTRACT_NO_REMOVAL_MESSAGE,
  NO_REMOVAL_PENDING_MESSAGE,
  REMOVAL_ALREADY_REQUESTED_MESSAGE,
} from '../../../events/royalty-values';
import type { Talent } from '../../../events/talent';
import { removalDoneEmail, removalRequestedEmail } from '../../../functions/likeness/emails/removal';
import { cancelRemoval } from '../../../functions/likeness/routes/cancel-removal/service';
import { getLikenessStatus } from '../../../functions/likeness/routes/get-likeness/service';
import { pauseLikeness } from '../../../functions/likeness/routes/pause-likeness/service';
import { FOUNDING_CONFIRMATION_MESSAGE, requestRemoval, type RemovalDeps } from '../../../functions/likeness/routes/request-removal/service';
import { resumeLikeness } from '../../../functions/likeness/routes/resume-likeness/service';
import { runLikenessSchedule } from '../../../functions/likeness/triggers/likeness-schedule/service';
import type { StandingDeps } from '../../../functions/accounts/access';
import { memoryOutbox, type Email, type TransactionWrite } from '../../../functions/shared/email';
import { noRateLimit } from '../../../functions/shared/rate-limit';
import type { Account } from '../../../functions/accounts/store';

const T0 = Date.parse('2026-11-25T10:00:00.000Z');
const NOTICE = 30 * 24 * 60 * 60;
const caller = { sub: 's1', email: 'tia@people.example', role: 'talent' as const, emailVerified: true };
const account: Account = {
  id: 's1',
  email: 'tia@people.example',
  full_name: 'Tia Ray',
  role: 'talent',
  disabled: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

/**
 * One catalog item and its controls, with the store's conditional writes as DynamoDB would apply
 * them; a write's `also` (its outbox email) is committed with it, and only when it succeeds.
 */
function catalog(founding: boolean, controls: LikenessControls = {}, commit: (write: TransactionWrite) => void = () => undefined) {
  const talent: Talent = {
    id: 'tia-ray',
    name: 'Tia Ray',
    image: '/t.svg',
    tagline: 't',
    bio: 'b',
    generationCount: 0,
    featured: false,
    tags: [],
    samples: [],
    founding,
    royaltyPlan: founding ? 'founding-35' : 'standard-tiers',
    status: 'active',
  };
  const state = { talent, controls: { generation: { model: 'humanly/tia', triggerWord: 'TIA' }, ...controls } as LikenessControls };
  return {
    state,
    store: {
      getForGeneration: async () => structuredClone(state),
      setPaused: async (_id: string, paused: boolean) => {
        if (state.controls.removedAt) return false;
        state.controls.paused = paused ? true : undefined;
        return true;
      },
      requestRemoval: async (_id: string, removal: { requestedAt: string; effectiveAt: string }, also: TransactionWrite[] = []) => {
        const c = state.controls;
        if (c.removal || c.removedAt || (c.frozen && c.frozen.until > removal.requestedAt)) return false;
        c.removal = removal;
        also.forEach(commit);
        return true;
      },
      cancelRemoval: async (_id: string, now: string) => {
        const c = state.controls;
        if (!c.removal || c.removal.effectiveAt <= now || c.removedAt) return false;
        delete c.removal;
        return true;
      },
      listPendingRemovals: async () => (state.controls.removal && !state.controls.removedAt ? [structuredClone(state)] : []),
      completeRemoval: async (_id: string, at: string, also: TransactionWrite[] = []) => {
        const c = state.controls;
        if (!c.removal || c.removal.effectiveAt > at || c.removedAt) return false;
        c.removedAt = at;
        delete c.generation;
        delete c.paused;
        state.talent = { ...state.talent, founding: false, royaltyPlan: 'standard-tiers' };
        also.forEach(commit);
        return true;
      },
    },
  };
}

function setup(founding = false, controls: LikenessControls = {}) {
  let now = T0;
  const sent: Array<{ to: string; email: Email }> = [];
  /** SES: up, or refusing every email while `ses.down`. */
  const ses = { down: false };
  const outbox = memoryOutbox(async (to, email) => {
    if (ses.down) throw Object.assign(new Error('connect ECONNREFUSED'), { name: 'Error', code: 'ECONNREFUSED' });
    sent.push({ to, email });
    return `m-${sent.length}`;
  }, () => new Date(now));
  const { state, store } = catalog(founding, controls, outbox.commit);
  const standing: StandingDeps = {
    founding: {
      getEmailLock: async () => ({ applicationId: 'app_1', fingerprint: 'f', submittedAt: 'x', response: { success: true, applicationId: 'app_1' } }),
      getApplication: async () => ({ id: 'app_1', program: 'founding', status: 'accepted', firstName: 'Tia', email: caller.email, submittedAt: '2026-01-02T00:00:00.000Z', imagePaths: [], talentId: 'tia-ray' }),
    },
    talent: { get: async () => state.talent, getExcludedIndustries: async () => [] },
  };
  const deps: RemovalDeps = {
    accounts: { get: async () => account, create: jest.fn() },
    standing,
    talent: store,
    now: () => new Date(now),
    limit: noRateLimit,
    removalNoticeSeconds: NOTICE,
    siteUrl: 'https://humanly.example',
    outbox,
  };
  return { state, store, deps, sent, outbox, ses, advance: (ms: number) => (now += ms), now: () => new Date(now) };
}

const DAY = 24 * 60 * 60 * 1000;

describe('pause and resume', () => {
  it('pauses and resumes idempotently, and refuses once the likeness is removed', async () => {
    const { deps, state } = setup();
    expect((await getLikenessStatus(deps, caller)).state).toBe('available');
    const paused = await pauseLikeness(deps, caller);
    expect(paused).toMatchObject({ state: 'paused', paused: true, canRequestRemoval: true });
    expect(await pauseLikeness(deps, caller)).toEqual(paused);
    expect(await resumeLikeness(deps, caller)).toMatchObject({ state: 'available', paused: false });
    state.controls.removedAt = new Date(T0).toISOString();
    await expect(pauseLikeness(deps, caller)).rejects.toMatchObject({ status: 409, message: ALREADY_REMOVED_MESSAGE });
  });
});

describe('removal', () => {
  it('records the notice, emails when it takes effect and how to cancel, and refuses a second request', async () => {
    const { deps, sent } = setup();
    const status = await requestRemoval(deps, caller, {});
    const effectiveAt = new Date(T0 + NOTICE * 1000).toISOString();
    expect(status).toMatchObject({ state: 'removal-pending', removal: { requestedAt: new Date(T0).toISOString(), effectiveAt }, canRequestRemoval: false });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.to).toBe(caller.email);
    expect(sent[0]!.email.subject).toBe('Your likeness will be removed on 25 December 2026');
    expect(sent[0]!.email.text).toContain('It takes effect on 25 December 2026, 10:00 UTC.');
    expect(sent[0]!.email.text).toContain('https://humanly.example/talent-portal');
    expect(sent[0]!.email.text).toContain('Licenses already issued'.toLowerCase());
    await expect(requestRemoval(deps, caller, {})).rejects.toMatchObject({ status: 409, message: REMOVAL_ALREADY_REQUESTED_MESSAGE });
    expect(sent).toHaveLength(1);
  });

  it('asks founding talent to confirm the loss of the 35% rate, naming the field and the warning', async () => {
    const { deps, state } = setup(true);
    for (const request of [{}, { acceptFoundingRateLoss: false }]) {
      await expect(requestRemoval(deps, caller, request)).rejects.toMatchObject({
        status: 400,
        message: FOUNDING_CONFIRMATION_MESSAGE,
        fields: { acceptFoundingRateLoss: FOUNDING_REMOVAL_WARNING },
      });
    }
    expect(FOUNDING_CONFIRMATION_MESSAGE).toContain('acceptFoundingRateLoss');
    expect(state.controls.removal).toBeUndefined();
    expect((await requestRemoval(deps, caller, { acceptFoundingRateLoss: true })).state).toBe('removal-pending');
  });

  it('is refused while an exclusive contract is in force or starting, with the brand and the date it ends', async () => {
    const until = '2027-06-30T00:00:00.000Z';
    for (const startsAt of [new Date(T0 - DAY).toISOString(), new Date(T0 + 10 * DAY).toISOString()]) {
      const { deps, state } = setup(false, { frozen: { accountId: 'brand', brandName: 'Acme Shoes', startsAt, until } });
      const status = await getLikenessStatus(deps, caller);
      expect(status).toMatchObject({ frozen: { brandName: 'Acme Shoes', startsAt, until }, canRequestRemoval: false });
      await expect(requestRemoval(deps, caller, {})).rejects.toMatchObject({ status: 409, message: CONTRACT_NO_REMOVAL_MESSAGE('Acme Shoes', '30 June 2027') });
      expect(state.controls.removal).toBeUndefined();
    }
    // A contract whose term is over no longer stands in the way.
    const { deps } = setup(false, { frozen: { accountId: 'brand', brandName: 'Acme Shoes', until: new Date(T0 - 1).toISOString() } });
    expect(await getLikenessStatus(deps, caller)).toMatchObject({ state: 'available', canRequestRemoval: true });
    expect((await getLikenessStatus(deps, caller)).frozen).toBeUndefined();
    expect((await requestRemoval(deps, caller, {})).state).toBe('removal-pending');
  });

  it('is cancelled during the notice, not before a request, and not once it took effect', async () => {
    const { deps, advance, state } = setup();
    await expect(cancelRemoval(deps, caller)).rejects.toMatchObject({ status: 409, message: NO_REMOVAL_PENDING_MESSAGE });
    await requestRemoval(deps, caller, {});
    advance(29 * DAY);
    expect(await cancelRemoval(deps, caller)).toMatchObject({ state: 'available', canRequestRemoval: true });
    expect(state.controls.removal).toBeUndefined();
    await requestRemoval(deps, caller, {});
    advance(NOTICE * 1000);
    // The notice has run out: removed by time, before the schedule has run.
    expect(await getLikenessStatus(deps, caller)).toMatchObject({ state: 'removed', removedAt: state.controls.removal!.effectiveAt, canRequestRemoval: false });
    await expect(cancelRemoval(deps, caller)).rejects.toMatchObject({ status: 409, message: ALREADY_REMOVED_MESSAGE });
    await expect(requestRemoval(deps, caller, {})).rejects.toMatchObject({ status: 409, message: ALREADY_REMOVED_MESSAGE });
  });
});

describe('the likeness schedule', () => {
  const contracts = { talent: { listUnderContract: async () => [], clearExclusiveContract: jest.fn(), markContractStartNotified: jest.fn() }, royalties: { addEndedContract: jest.fn() }, emailOf: async () => undefined, outbox: { entry: jest.fn(), deliver: jest.fn() }, siteUrl: '' };
  const quiet = () => (['log', 'warn', 'error'] as const).map((m) => jest.spyOn(console, m).mockImplementation(() => undefined));
  /** The bus, as the tests before the event see it: every publish accepted. */
  const publishRemoved = async () => undefined;

  it('carries out a removal once its notice ended: removedAt, model and pause cleared, founding rate ended, one email', async () => {
    const { deps, state, store, outbox, sent, advance, now } = setup(true, { paused: true });
    await requestRemoval(deps, caller, { acceptFoundingRateLoss: true });
    expect(sent.map((m) => m.email.subject)).toEqual(['Your likeness will be removed on 25 December 2026']);
    const schedule = { talent: store, emailOf: async () => 'tia@people.example', outbox, siteUrl: 'https://humanly.example', contracts, publishRemoved };

    advance(NOTICE * 1000 - 1);
    expect(await runLikenessSchedule(schedule, now())).toMatchObject({ removed: 0 });
    expect(state.controls.generation).toBeDefined();

    advance(1);
    expect(await runLikenessSchedule(schedule, now())).toEqual({ removed: 1, started: 0, ended: 0, emails: { sent: 1, failed: 0, overdue: 0 } });
    expect(state.controls).toMatchObject({ removedAt: now().toISOString() });
    expect(state.controls.generation).toBeUndefined();
    expect(state.controls.paused).toBeUndefined();
    expect(state.talent).toMatchObject({ founding: false, royaltyPlan: 'standard-tiers' });
    expect(sent.slice(1)).toEqual([{ to: 'tia@people.example', email: removalDoneEmail({ name: 'Tia Ray', removedAt: now().toISOString(), siteUrl: 'https://humanly.example' }) }]);

    // Again: nothing to do, no second email.
    advance(60 * 60 * 1000);
    expect(await runLikenessSchedule(schedule, now())).toMatchObject({ removed: 0, emails: { sent: 0, failed: 0, overdue: 0 } });
    expect(sent).toHaveLength(2);
  });

  it('with SES down when the removal completes, keeps its email in the outbox and sends it once SES is back, once; an hour unsent is overdue', async () => {
    const { deps, state, store, outbox, sent, ses, advance, now } = setup();
    await requestRemoval(deps, caller, {});
    const schedule = { talent: store, emailOf: async () => 'tia@people.example', outbox, siteUrl: 'https://humanly.example', contracts, publishRemoved };
    advance(NOTICE * 1000);
    const logs = quiet();
    try {
      ses.down = true;
      const removedAt = now().toISOString();
      expect(await runLikenessSchedule(schedule, now())).toMatchObject({ removed: 1, emails: { sent: 0, failed: 1, overdue: 0 } });
      expect(state.controls.removedAt).toBe(removedAt);
      // Still down an hour later: retried, not sent, and now overdue (the alarm's count).
      advance(60 * 60 * 1000);
      expect(await runLikenessSchedule(schedule, now())).toMatchObject({ removed: 0, emails: { sent: 0, failed: 1, overdue: 1 } });
      expect(sent.map((m) => m.email.subject)).toEqual(['Your likeness will be removed on 25 December 2026']);

      ses.down = false;
      advance(60 * 60 * 1000);
      expect(await runLikenessSchedule(schedule, now())).toMatchObject({ removed: 0, emails: { sent: 1, failed: 0, overdue: 0 } });
      expect(sent.slice(1)).toEqual([{ to: 'tia@people.example', email: removalDoneEmail({ name: 'Tia Ray', removedAt, siteUrl: 'https://humanly.example' }) }]);
      advance(60 * 60 * 1000);
      expect(await runLikenessSchedule(schedule, now())).toMatchObject({ emails: { sent: 0, failed: 0, overdue: 0 } });
      expect(sent).toHaveLength(2);
      // Once sent, the item keeps no address and no text.
      expect([...outbox.items.values()].every((i) => i.sentAt)).toBe(true);
    } finally {
      for (const l of logs) l.mockRestore();
    }
  });

  it('keeps the removal request itself when its email cannot go, and sends the email on the next run', async () => {
    const { deps, state, store, outbox, sent, ses } = setup();
    const logs = quiet();
    try {
      ses.down = true;
      expect((await requestRemoval(deps, caller, {})).state).toBe('removal-pending');
      expect(state.controls.removal).toBeDefined();
      expect(sent).toEqual([]);
      ses.down = false;
      await runLikenessSchedule({ talent: store, emailOf: async () => 'tia@people.example', outbox, siteUrl: 'https://humanly.example', contracts, publishRemoved }, new Date(T0 + 60_000));
      expect(sent.map((m) => m.email.subject)).toEqual(['Your likeness will be removed on 25 December 2026']);
    } finally {
      for (const l of logs) l.mockRestore();
    }
  });

  it('carries out the removal and logs, without an address in the logs, when the talent has no email', async () => {
    const { deps, state, store, outbox, sent, advance, now } = setup();
    await requestRemoval(deps, caller, {});
    advance(NOTICE * 1000);
    const logged = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(await runLikenessSchedule({ talent: store, emailOf: async () => undefined, outbox, siteUrl: '', contracts, publishRemoved }, now())).toMatchObject({ removed: 1 });
    expect(state.controls.removedAt).toBeDefined();
    expect(sent.map((m) => m.email.subject)).toEqual(['Your likeness will be removed on 25 December 2026']);
    expect(logged.mock.calls.join('\n')).not.toContain('@');
    logged.mockRestore();
  });
});

describe('the likeness schedule publishes Likeness.Removed', () => {
  const contracts = { talent: { listUnderContract: async () => [], clearExclusiveContract: jest.fn(), markContractStartNotified: jest.fn() }, royalties: { addEndedContract: jest.fn() }, emailOf: async () => undefined, outbox: { entry: jest.fn(), deliver: jest.fn() }, siteUrl: '' };
  const APP = 'app_aaaaaaaaaaaaaaaaaaaa';

  it('once per talent it removes, with the application the talent came from, before it records the removal', async () => {
    const { deps, state, store, outbox, advance, now } = setup(true, { applicationId: APP });
    await requestRemoval(deps, caller, { acceptFoundingRateLoss: true });
    const published: Array<{ event: LikenessRemovedV1; removedAtThen: string | undefined }> = [];
    const schedule = {
      talent: store,
      emailOf: async () => 'tia@people.example',
      outbox,
      siteUrl: 'https://humanly.example',
      contracts,
      publishRemoved: async (event: LikenessRemovedV1) => void published.push({ event, removedAtThen: state.controls.removedAt }),
    };
    advance(NOTICE * 1000 - 1);
    await runLikenessSchedule(schedule, now());
    expect(published).toEqual([]);

    advance(1);
    expect(await runLikenessSchedule(schedule, now())).toMatchObject({ removed: 1 });
    expect(published).toEqual([{ event: { version: 1, talentId: 'tia-ray', applicationId: APP, removedAt: now().toISOString() }, removedAtThen: undefined }]);
    expect(LikenessRemovedV1.parse(published[0]!.event)).toEqual(published[0]!.event);
    expect(state.controls.removedAt).toBe(now().toISOString());

    // Carried out: the next runs publish nothing more.
    advance(60 * 60 * 1000);
    await runLikenessSchedule(schedule, now());
    expect(published).toHaveLength(1);
  });

  it('names no application for a seeded talent, and publishes for each talent whose notice ended, not the others', async () => {
    const due = { id: 'due-talent', removal: { requestedAt: new Date(T0 - 2 * NOTICE * 1000).toISOString(), effectiveAt: new Date(T0 - 1000).toISOString() } };
    const later = { id: 'later-talent', removal: { requestedAt: new Date(T0).toISOString(), effectiveAt: new Date(T0 + NOTICE * 1000).toISOString() } };
    const other = catalog(false).state.talent;
    const completed: string[] = [];
    const published: LikenessRemovedV1[] = [];
    const store = {
      listPendingRemovals: async () => [due, later].map((t) => ({ talent: { ...other, id: t.id, name: t.id }, controls: { removal: t.removal } as LikenessControls })),
      completeRemoval: async (id: string) => (completed.push(id), true),
    };
    const outbox = memoryOutbox(async () => 'm-1', () => new Date(T0));
    const result = await runLikenessSchedule(
      { talent: store, emailOf: async () => undefined, outbox, siteUrl: '', contracts, publishRemoved: async (event) => void published.push(event) },
      new Date(T0),
    );
    expect(result).toMatchObject({ removed: 1 });
    expect(published).toEqual([{ version: 1, talentId: 'due-talent', removedAt: new Date(T0).toISOString() }]);
    expect(completed).toEqual(['due-talent']);
  });

  it('leaves the removal pending when the event cannot be published, logs it by talent, and publishes and carries it out on the next run', async () => {
    const { deps, state, store, outbox, sent, advance, now } = setup(false, { applicationId: APP });
    await requestRemoval(deps, caller, {});
    const bus = { down: true, published: [] as LikenessRemovedV1[] };
    const schedule = {
      talent: store,
      emailOf: async () => 'tia@people.example',
      outbox,
      siteUrl: 'https://humanly.example',
      contracts,
      publishRemoved: async (event: LikenessRemovedV1) => {
        if (bus.down) throw new Error('EventBridge refused Likeness.Removed: InternalFailure');
        bus.published.push(event);
      },
    };
    advance(NOTICE * 1000);
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      expect(await runLikenessSchedule(schedule, now())).toMatchObject({ removed: 0 });
      expect(state.controls.removedAt).toBeUndefined();
      expect(state.controls.generation).toBeDefined();
      expect(sent.map((m) => m.email.subject)).toEqual(['Your likeness will be removed on 25 December 2026']);
      expect(errors.mock.calls.join('\n')).toMatch(/likeness removal follow-up failed.*tia-ray|tia-ray.*likeness removal follow-up failed/);
    } finally {
      errors.mockRestore();
    }

    bus.down = false;
    advance(60 * 60 * 1000);
    expect(await runLikenessSchedule(schedule, now())).toMatchObject({ removed: 1 });
    expect(bus.published).toEqual([{ version: 1, talentId: 'tia-ray', applicationId: APP, removedAt: now().toISOString() }]);
    expect(state.controls.removedAt).toBe(now().toISOString());
    expect(sent.map((m) => m.email.subject)).toHaveLength(2);
  });
});

describe('removal emails', () => {
  it('warn founding talent of the rate in the request, and say licenses stay valid, in HTML and text', () => {
    const founding = removalRequestedEmail({ name: 'Tia Ray', effectiveAt: '2026-12-25T10:00:00.000Z', founding: true, siteUrl: 'https://humanly.example/' });
    expect(founding.text).toContain('Hi Tia,');
    expect(founding.text).toContain('your founding 35% royalty rate ends');
    expect(founding.html).toContain('href="https://humanly.example/talent-portal"');
    expect(removalRequestedEmail({ name: 'Tia', effectiveAt: '2026-12-25T10:00:00.000Z', founding: false, siteUrl: 'x' }).text).not.toContain('35%');
    const done = removalDoneEmail({ name: '<b>Tia</b>', removedAt: '2026-12-25T10:00:00.000Z', siteUrl: 'https://humanly.example' });
    expect(done.text).toContain('stay valid');
    expect(done.html).not.toContain('<b>Tia');
  });
});
