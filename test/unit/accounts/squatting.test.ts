import { SIGN_UP_CONFLICT_ADDRESS_MESSAGE, SIGN_UP_CONFLICTS_PER_ADDRESS_PER_DAY } from '../../../events/sign-up';
import type { PoolUser, PoolUsers } from '../../../functions/accounts/pool-users';
import { resolveSignUpConflict } from '../../../functions/accounts/routes/resolve-sign-up-conflict/service';
import { removeUnconfirmedUsers } from '../../../functions/accounts/triggers/remove-unconfirmed-users/service';
import type { Email } from '../../../functions/shared/email';
import { inMemoryRateLimiter } from '../../../functions/shared/rate-limit';

// Addresses nobody proved they own (decision 040), with the user pool faked in memory.
function pool(users: PoolUser[]): PoolUsers & { removed: string[] } {
  const removed: string[] = [];
  const live = () => users.filter((u) => !removed.includes(u.username));
  return {
    removed,
    get: async (email) => live().find((u) => u.username === email),
    remove: async (username) => void removed.push(username),
    async *unconfirmed() {
      yield* live().filter((u) => u.status === 'UNCONFIRMED');
    },
  };
}

const NOW = new Date('2026-11-27T12:00:00.000Z');
const hoursAgo = (h: number) => new Date(NOW.getTime() - h * 3600_000);

describe('the unconfirmed-users schedule', () => {
  it('removes sign-ups unconfirmed for more than a day as of the event time, and nothing else', async () => {
    const users = pool([
      { username: 'squatter@people.example', status: 'UNCONFIRMED', enabled: true, createdAt: hoursAgo(25) },
      { username: 'exactly.a.day@people.example', status: 'UNCONFIRMED', enabled: true, createdAt: hoursAgo(24) },
      { username: 'just.now@people.example', status: 'UNCONFIRMED', enabled: true, createdAt: hoursAgo(23.9) },
      { username: 'owner@people.example', status: 'CONFIRMED', enabled: true, createdAt: hoursAgo(500) },
      { username: 'invited@people.example', status: 'FORCE_CHANGE_PASSWORD', enabled: true, createdAt: hoursAgo(500) },
    ]);
    // The clock says a week later: the event's time decides.
    const result = await removeUnconfirmedUsers({ users, now: () => new Date(NOW.getTime() + 7 * 24 * 3600_000) }, { time: NOW.toISOString() });
    expect(result).toEqual({ removed: 2, kept: 1 });
    expect(users.removed).toEqual(['squatter@people.example', 'exactly.a.day@people.example']);
  });

  it('a second delivery removes nothing more', async () => {
    const users = pool([{ username: 'squatter@people.example', status: 'UNCONFIRMED', enabled: true, createdAt: hoursAgo(30) }]);
    await removeUnconfirmedUsers({ users, now: () => NOW });
    expect(await removeUnconfirmedUsers({ users, now: () => NOW })).toEqual({ removed: 0, kept: 0 });
  });
});

describe('POST /sign-up-conflicts', () => {
  const SITE = 'https://humanly.example';
  const setup = (users: PoolUser[]) => {
    const sent: Array<{ to: string; email: Email }> = [];
    const fake = pool(users);
    const deps = { users: fake, send: async (to: string, email: Email) => void sent.push({ to, email }), limit: inMemoryRateLimiter(() => NOW), siteUrl: SITE };
    return { deps, sent, fake };
  };

  it('answers the same for a new address, a squatted one and an account in use', async () => {
    const { deps, sent, fake } = setup([
      { username: 'held@people.example', status: 'UNCONFIRMED', enabled: true, createdAt: hoursAgo(1) },
      { username: 'owner@people.example', status: 'CONFIRMED', enabled: true, createdAt: hoursAgo(100) },
    ]);
    const caller = { ip: '203.0.113.9' };
    const fresh = await resolveSignUpConflict(deps, { email: 'new@people.example' }, caller);
    const held = await resolveSignUpConflict(deps, { email: 'held@people.example' }, caller);
    const owned = await resolveSignUpConflict(deps, { email: 'owner@people.example' }, caller);
    expect([fresh.response, held.response, owned.response]).toEqual([{ received: true }, { received: true }, { received: true }]);
    expect([fresh.outcome, held.outcome, owned.outcome]).toEqual(['no-account', 'unconfirmed-removed', 'owner-told']);
    // The unconfirmed sign-up is gone, so the page's second try creates the account.
    expect(fake.removed).toEqual(['held@people.example']);
    // Only the owner of the account in use is emailed, with where to sign in and reset.
    expect(sent.map((s) => s.to)).toEqual(['owner@people.example']);
    expect(sent[0].email.subject).toBe('You already have a Humanly account');
    expect(sent[0].email.text).toContain(`${SITE}/sign-in`);
    expect(sent[0].email.text).toContain(`${SITE}/reset-password`);
  });

  it('tells nobody about a disabled account', async () => {
    const { deps, sent, fake } = setup([{ username: 'banned@people.example', status: 'CONFIRMED', enabled: false, createdAt: hoursAgo(100) }]);
    expect((await resolveSignUpConflict(deps, { email: 'banned@people.example' }, { ip: '203.0.113.9' })).outcome).toBe('disabled');
    expect(sent).toEqual([]);
    expect(fake.removed).toEqual([]);
  });

  it('counts every address the same before looking it up, so the owner gets at most a few emails a day', async () => {
    const { deps, sent } = setup([{ username: 'owner@people.example', status: 'CONFIRMED', enabled: true, createdAt: hoursAgo(100) }]);
    for (let i = 0; i < SIGN_UP_CONFLICTS_PER_ADDRESS_PER_DAY; i++) await resolveSignUpConflict(deps, { email: 'owner@people.example' }, { ip: `203.0.113.${i + 1}` });
    await expect(resolveSignUpConflict(deps, { email: 'owner@people.example' }, { ip: '203.0.113.50' })).rejects.toMatchObject({ status: 429, message: SIGN_UP_CONFLICT_ADDRESS_MESSAGE });
    for (let i = 0; i < SIGN_UP_CONFLICTS_PER_ADDRESS_PER_DAY; i++) await resolveSignUpConflict(deps, { email: 'nobody@people.example' }, { ip: `203.0.113.${i + 1}` });
    await expect(resolveSignUpConflict(deps, { email: 'nobody@people.example' }, { ip: '203.0.113.50' })).rejects.toMatchObject({ status: 429, message: SIGN_UP_CONFLICT_ADDRESS_MESSAGE });
    expect(sent).toHaveLength(SIGN_UP_CONFLICTS_PER_ADDRESS_PER_DAY);
  });
});
