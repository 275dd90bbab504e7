import type { LikenessControls } from '../../../events/generations';
import {
  CONTRACT_EXISTS_MESSAGE,
  CONTRACT_NOT_CLIENT_MESSAGE,
  CONTRACT_REMOVAL_PENDING_MESSAGE,
  CONTRACT_TERM_MESSAGE,
  NO_CONTRACT_MESSAGE,
} from '../../../events/royalty-values';
import type { Talent } from '../../../events/talent';
import type { ExclusiveContractDeps } from '../../../functions/likeness/exclusive-contracts';
import { endExclusiveContract } from '../../../functions/likeness/routes/end-exclusive-contract/service';
import { getExclusiveContract } from '../../../functions/likeness/routes/get-exclusive-contract/service';
import { CONTRACT_REMOVED_MESSAGE, recordExclusiveContract } from '../../../functions/likeness/routes/record-exclusive-contract/service';
import { exclusiveTalent } from '../../../functions/likeness/routes/list-exclusive-talent/service';
import { runContractNotices, TERM_ENDED_BY } from '../../../functions/likeness/contract-notices';
import { memoryOutbox, type Email } from '../../../functions/shared/email';
import type { EndedContract } from '../../../functions/royalties/store';

const BRAND = '11111111-2222-4333-8444-555555555555';
const OTHER = '99999999-2222-4333-8444-555555555555';
const NOW = new Date('2026-11-25T10:00:00.000Z');
const later = (hours: number) => new Date(NOW.getTime() + hours * 3600_000).toISOString();

const talentOf = (id: string): Talent =>
  ({ id, name: 'Maya Chen', tagline: 't', bio: 'b', tags: [], featured: false, status: 'active', founding: false, royaltyPlan: 'standard-tiers', generationCount: 0 }) as unknown as Talent;

/** In-memory stores that keep the conditions of the DynamoDB ones (set once, clear/mark by contract id). */
function world(controls: LikenessControls = { applicationId: 'app-1' }) {
  const items = new Map<string, { talent: Talent; controls: LikenessControls }>([['maya-chen', { talent: talentOf('maya-chen'), controls }]]);
  const history: EndedContract[] = [];
  const sent: { to: string; email: Email }[] = [];
  /** SES: up, or refusing every email while `ses.down`. */
  const ses = { down: false };
  const outbox = memoryOutbox(async (to, email) => {
    if (ses.down) throw Object.assign(new Error('SES down'), { name: 'ServiceUnavailable' });
    sent.push({ to, email });
    return undefined;
  });
  let ids = 0;
  const deps: ExclusiveContractDeps = {
    talent: {
      async getForGeneration(id) {
        const i = items.get(id);
        return i && { talent: i.talent, controls: structuredClone(i.controls) };
      },
      async setExclusiveContract(id, contract) {
        const i = items.get(id);
        if (!i) return 'not-found';
        if (i.controls.frozen || i.controls.removal || i.controls.removedAt) return 'conflict';
        i.controls.frozen = contract;
        return 'recorded';
      },
      // A write's `also` (its outbox email) is committed with it, and only when it succeeds.
      async clearExclusiveContract(id, contractId, also = []) {
        const i = items.get(id);
        if (i?.controls.frozen?.id !== contractId) return false;
        delete i.controls.frozen;
        also.forEach(outbox.commit);
        return true;
      },
      async markContractStartNotified(id, contractId, at, also = []) {
        const contract = items.get(id)?.controls.frozen;
        if (contract?.id !== contractId) return false;
        if (at === undefined) return delete contract.startNotifiedAt;
        if (contract.startNotifiedAt) return false;
        contract.startNotifiedAt = at;
        also.forEach(outbox.commit);
        return true;
      },
      async listUnderContract(accountId) {
        return [...items.values()]
          .filter((i) => i.controls.frozen && (!accountId || i.controls.frozen.accountId === accountId))
          .map((i) => ({ talent: i.talent, controls: structuredClone(i.controls) }));
      },
    },
    royalties: {
      async addEndedContract(_talentId, contract) {
        const at = history.findIndex((h) => h.id === contract.id);
        if (at >= 0) history[at] = contract;
        else history.push(contract);
      },
      async endedContracts() {
        return [...history];
      },
    },
    accounts: {
      async get(id) {
        if (id === BRAND) return { id, role: 'client' } as never;
        if (id === OTHER) return { id, role: 'talent' } as never;
        return undefined;
      },
    },
    emailOf: async (_id, c) => (c.applicationId ? 'maya@example.com' : undefined),
    outbox,
    siteUrl: 'https://site.example',
    newId: () => `contract-${++ids}`,
  };
  return { deps, items, history, sent, ses, outbox, controls: () => items.get('maya-chen')!.controls };
}

const request = (over: Partial<{ accountId: string; brandName: string; startsAt: string; until: string }> = {}) => ({
  accountId: BRAND,
  brandName: 'Acme Studio',
  until: later(24 * 30),
  ...over,
});

const refusal = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    return { status: (err as { status?: number }).status, message: (err as Error).message, fields: (err as { fields?: unknown }).fields };
  }
  throw new Error('expected a refusal');
};

describe('exclusive contracts: recording (POST /admin/talent/{id}/exclusive-contract)', () => {
  it('records a contract starting now with who and when, tells the talent once, and refuses a second one', async () => {
    const w = world();
    const answer = await recordExclusiveContract(w.deps, 'maya-chen', request(), 'admin@example.com', NOW);
    expect(answer.current).toMatchObject({
      id: 'contract-1',
      accountId: BRAND,
      brandName: 'Acme Studio',
      startsAt: NOW.toISOString(),
      recordedBy: 'admin@example.com',
      recordedAt: NOW.toISOString(),
      startNotifiedAt: NOW.toISOString(),
    });
    expect(w.sent).toHaveLength(1);
    expect(w.sent[0].email.subject).toBe('Your exclusive contract with Acme Studio has started');
    expect(w.sent[0].email.text).toContain('only Acme Studio can generate images with your likeness');
    expect(w.sent[0].email.text).toContain('you cannot request removal of your likeness until 25 December 2026');
    expect(w.sent[0].email.html).toContain('hidden from the public Talent Library');

    expect(await refusal(recordExclusiveContract(w.deps, 'maya-chen', request(), 'admin@example.com', NOW))).toMatchObject({ status: 409, message: CONTRACT_EXISTS_MESSAGE });
    // The schedule's run does not tell the talent a second time.
    expect(await runContractNotices(w.deps, new Date(NOW.getTime() + 3600_000))).toEqual({ started: 0, ended: 0 });
    expect(w.sent).toHaveLength(1);
  });

  it('refuses a bad term, a non-client account, an unknown talent, a removal pending and a removed likeness', async () => {
    const w = world();
    expect(await refusal(recordExclusiveContract(w.deps, 'maya-chen', request({ until: later(-1) }), 'a', NOW))).toMatchObject({ status: 400, message: CONTRACT_TERM_MESSAGE, fields: { until: CONTRACT_TERM_MESSAGE } });
    expect(await refusal(recordExclusiveContract(w.deps, 'maya-chen', request({ startsAt: later(48), until: later(24) }), 'a', NOW))).toMatchObject({ status: 400, message: CONTRACT_TERM_MESSAGE });
    expect(await refusal(recordExclusiveContract(w.deps, 'maya-chen', request({ accountId: OTHER }), 'a', NOW))).toMatchObject({ status: 400, message: CONTRACT_NOT_CLIENT_MESSAGE, fields: { accountId: CONTRACT_NOT_CLIENT_MESSAGE } });
    expect(await refusal(recordExclusiveContract(w.deps, 'maya-chen', request({ accountId: '00000000-0000-4000-8000-000000000000' }), 'a', NOW))).toMatchObject({ status: 400, message: CONTRACT_NOT_CLIENT_MESSAGE });
    expect(await refusal(recordExclusiveContract(w.deps, 'nobody', request(), 'a', NOW))).toMatchObject({ status: 404 });

    const pending = world({ removal: { requestedAt: later(-1), effectiveAt: later(100) } });
    expect(await refusal(recordExclusiveContract(pending.deps, 'maya-chen', request(), 'a', NOW))).toMatchObject({ status: 409, message: CONTRACT_REMOVAL_PENDING_MESSAGE });
    const removed = world({ removedAt: later(-1) });
    expect(await refusal(recordExclusiveContract(removed.deps, 'maya-chen', request(), 'a', NOW))).toMatchObject({ status: 409, message: CONTRACT_REMOVED_MESSAGE });
    for (const x of [w, pending, removed]) expect(x.controls().frozen).toBeUndefined();
  });

  it('a contract starting later is told by the schedule when it starts, once, even with two runs at once', async () => {
    const w = world();
    const answer = await recordExclusiveContract(w.deps, 'maya-chen', request({ startsAt: later(2) }), 'admin@example.com', NOW);
    expect(answer.current?.startNotifiedAt).toBeUndefined();
    expect(w.sent).toHaveLength(0);
    expect(await runContractNotices(w.deps, new Date(later(1)))).toEqual({ started: 0, ended: 0 });
    const runs = await Promise.all([runContractNotices(w.deps, new Date(later(3))), runContractNotices(w.deps, new Date(later(3)))]);
    expect(runs.reduce((n, r) => n + r.started, 0)).toBe(1);
    expect(w.sent.map((s) => s.email.subject)).toEqual(['Your exclusive contract with Acme Studio has started']);
  });

  it('a start email that cannot go waits in the outbox, and the next sending run sends it, once', async () => {
    const w = world();
    await recordExclusiveContract(w.deps, 'maya-chen', request({ startsAt: later(1) }), 'a', NOW);
    const logs = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    w.ses.down = true;
    expect(await runContractNotices(w.deps, new Date(later(2)))).toEqual({ started: 1, ended: 0 });
    logs.mockRestore();
    expect(w.controls().frozen?.startNotifiedAt).toBe(later(2));
    expect(w.sent).toHaveLength(0);
    w.ses.down = false;
    // The schedule's next run: no second start (it is marked), and the waiting email goes.
    expect(await runContractNotices(w.deps, new Date(later(3)))).toEqual({ started: 0, ended: 0 });
    expect(await w.outbox.deliver()).toMatchObject({ sent: 1, failed: 0 });
    expect(await w.outbox.deliver()).toMatchObject({ sent: 0, failed: 0 });
    expect(w.sent.map((s) => s.email.subject)).toEqual(['Your exclusive contract with Acme Studio has started']);
  });
});

describe('exclusive contracts: ending', () => {
  it('at the end of the term the schedule archives the contract (term ended), clears it and tells the talent, once', async () => {
    const w = world();
    await recordExclusiveContract(w.deps, 'maya-chen', request({ until: later(5) }), 'admin@example.com', NOW);
    expect(await runContractNotices(w.deps, new Date(later(4)))).toEqual({ started: 0, ended: 0 });
    const runs = await Promise.all([runContractNotices(w.deps, new Date(later(6))), runContractNotices(w.deps, new Date(later(6)))]);
    expect(runs.reduce((n, r) => n + r.ended, 0)).toBe(1);
    expect(w.controls().frozen).toBeUndefined();
    expect(w.history).toEqual([expect.objectContaining({ id: 'contract-1', endedBy: TERM_ENDED_BY, endedAt: later(5), recordedBy: 'admin@example.com' })]);
    expect(w.sent.map((s) => s.email.subject)).toEqual(['Your exclusive contract with Acme Studio has started', 'Your exclusive contract with Acme Studio has ended']);
    expect(w.sent[1].email.text).toContain('Your profile is back in the public Talent Library');
    const answer = await getExclusiveContract(w.deps, 'maya-chen', new Date(later(6)));
    expect(answer.current).toBeUndefined();
    expect(answer.history).toHaveLength(1);
  });

  it('an admin ends a contract early: history names them, the talent is told it ended early; nothing to end answers 404', async () => {
    const w = world();
    await recordExclusiveContract(w.deps, 'maya-chen', request(), 'admin@example.com', NOW);
    const answer = await endExclusiveContract(w.deps, 'maya-chen', 'other-admin@example.com', new Date(later(1)));
    expect(answer.current).toBeUndefined();
    expect(answer.history[0]).toMatchObject({ endedBy: 'other-admin@example.com', endedAt: later(1) });
    expect(w.sent[1].email.text).toContain('before its term');
    expect(await refusal(endExclusiveContract(w.deps, 'maya-chen', 'a', new Date(later(2))))).toMatchObject({ status: 404, message: NO_CONTRACT_MESSAGE });
    // A new contract may be recorded after one ended.
    expect((await recordExclusiveContract(w.deps, 'maya-chen', request(), 'a', new Date(later(2)))).current?.id).toBe('contract-2');
  });

  it('an end whose email cannot go still ends the contract; the email waits in the outbox and goes once SES is back', async () => {
    const w = world();
    await recordExclusiveContract(w.deps, 'maya-chen', request(), 'admin@example.com', NOW);
    const logs = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    w.ses.down = true;
    await endExclusiveContract(w.deps, 'maya-chen', 'other-admin@example.com', new Date(later(1)));
    logs.mockRestore();
    expect(w.controls().frozen).toBeUndefined();
    expect(w.sent.map((s) => s.email.subject)).toEqual(['Your exclusive contract with Acme Studio has started']);
    w.ses.down = false;
    expect(await w.outbox.deliver()).toMatchObject({ sent: 1 });
    expect(w.sent.map((s) => s.email.subject)).toEqual(['Your exclusive contract with Acme Studio has started', 'Your exclusive contract with Acme Studio has ended']);
  });

  it('a talent without an email address still has the contract ended (the notice is skipped)', async () => {
    const w = world({});
    await recordExclusiveContract(w.deps, 'maya-chen', request({ until: later(1) }), 'a', NOW);
    expect(await runContractNotices(w.deps, new Date(later(2)))).toEqual({ started: 0, ended: 1 });
    expect(w.sent).toHaveLength(0);
    expect(w.controls().frozen).toBeUndefined();
  });
});

describe('GET /me/exclusive-talent', () => {
  it('lists the talent under contract with this client while the contract is in force, and no one else', async () => {
    const w = world();
    await recordExclusiveContract(w.deps, 'maya-chen', request({ startsAt: later(1), until: later(10) }), 'a', NOW);
    expect((await exclusiveTalent(w.deps.talent, BRAND, NOW)).talent).toEqual([]);
    const during = await exclusiveTalent(w.deps.talent, BRAND, new Date(later(2)));
    expect(during.talent.map((t) => t.id)).toEqual(['maya-chen']);
    expect(during.talent[0]).not.toHaveProperty('status');
    expect((await exclusiveTalent(w.deps.talent, OTHER, new Date(later(2)))).talent).toEqual([]);
    expect((await exclusiveTalent(w.deps.talent, BRAND, new Date(later(11)))).talent).toEqual([]);
  });
});

