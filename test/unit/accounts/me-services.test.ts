// The /me services with in-memory parts: what GET /me answers each role (with a request for a
// plan made before payments opened), the likeness update (docs/product.md#account-api).
import { getMe, type MeDeps } from '../../../functions/accounts/routes/get-me/service';
import { updateLikeness } from '../../../functions/likeness/routes/update-likeness/service';
import { updateMe } from '../../../functions/accounts/routes/update-me/service';
import type { StandingDeps } from '../../../functions/accounts/access';
import { inMemoryRateLimiter, noRateLimit } from '../../../functions/shared/rate-limit';
import type { Account } from '../../../functions/accounts/store';

const account = (over: Partial<Account> = {}): Account => ({
  id: 's1',
  email: 'a@b.example',
  full_name: 'Ada',
  role: 'client',
  plan: 'starter',
  disabled: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});
const client = { sub: 's1', email: 'a@b.example', role: 'client' as const, emailVerified: true };
const talent = { ...client, role: 'talent' as const };
const request = { id: 'r1', plan: 'pro' as const, status: 'pending' as const, requestedAt: '2026-01-03T00:00:00.000Z' };

const standing = (status: 'accepted' | 'pending_review' | undefined): StandingDeps => ({
  founding: {
    getEmailLock: async () => (status ? { applicationId: 'app_1', fingerprint: 'f', submittedAt: 'x', response: { success: true, applicationId: 'app_1' } } : undefined),
    getApplication: async () => ({ id: 'app_1', program: 'standard', status: status!, firstName: 'T', email: 'a@b.example', submittedAt: '2026-01-02T00:00:00.000Z', imagePaths: [], talentId: 'tia' }),
  },
  talent: {
    get: async (id) => ({ id, name: 'Tia', image: '/t.svg', tagline: 't', bio: 'b', generationCount: 0, featured: false, tags: [], samples: [], founding: false, royaltyPlan: 'standard-tiers', status: 'hidden' }),
    getExcludedIndustries: async () => [],
  },
});

describe('GET /me', () => {
  const deps = (acc: Account, pending: typeof request | null = request, st = standing(undefined)): MeDeps => ({
    accounts: { get: async () => acc, create: jest.fn(), pendingPlanRequest: async () => pending ?? undefined },
    ledger: { balance: async () => 42 },
    standing: st,
  });

  it('answers a client its plan, balance and pending request, and no talent standing', async () => {
    expect(await getMe(deps(account()), client)).toEqual({
      profile: { id: 's1', full_name: 'Ada', email: 'a@b.example', createdAt: '2026-01-01T00:00:00.000Z' },
      role: 'client',
      plan: { id: 'starter', name: 'Starter' },
      credits: { balance: 42 },
      planRequest: request,
    });
    expect((await getMe(deps(account(), null), client)).planRequest).toBeUndefined();
  });

  it('answers a talent its standing, and no plan or credits', async () => {
    const me = await getMe(deps(account({ role: 'talent', plan: undefined }), null, standing('accepted')), talent);
    expect(me).toEqual({
      profile: expect.objectContaining({ id: 's1' }),
      role: 'talent',
      talent: expect.objectContaining({ access: 'accepted', likeness: expect.objectContaining({ talentId: 'tia', status: 'hidden' }) }),
    });
  });
});

describe('PATCH /me', () => {
  it('saves the name and answers the profile, and refuses the 31st change in an hour with 429 without saving it', async () => {
    const updateProfile = jest.fn(async (_id: string, changes: { full_name: string }) => account(changes));
    const deps = { accounts: { get: async () => account(), create: jest.fn(), updateProfile }, limit: inMemoryRateLimiter() };
    expect(await updateMe(deps, client, { full_name: 'Ada Lovelace' })).toMatchObject({ full_name: 'Ada Lovelace' });
    for (let i = 1; i < 30; i++) await updateMe(deps, client, { full_name: `Ada ${i}` });
    await expect(updateMe(deps, client, { full_name: 'Ada 31' })).rejects.toMatchObject({ status: 429 });
    expect(updateProfile).toHaveBeenCalledTimes(30);
  });
});

describe('PATCH /me/likeness', () => {
  it('stores each excluded industry once, in the product order, on the accepted talent\'s catalog item', async () => {
    const set = jest.fn(async () => true);
    const deps = { accounts: { get: async () => account({ role: 'talent' }), create: jest.fn() }, standing: standing('accepted'), setExcludedIndustries: set, limit: noRateLimit };
    const likeness = await updateLikeness(deps, talent, ['alcohol', 'religion', 'alcohol']);
    expect(set).toHaveBeenCalledWith('tia', ['religion', 'alcohol']);
    expect(likeness).toEqual({ talentId: 'tia', name: 'Tia', status: 'hidden', founding: false, excludedIndustries: ['religion', 'alcohol'] });
  });

  it('refuses a talent whose application is not accepted, and writes nothing', async () => {
    const set = jest.fn(async () => true);
    const deps = { accounts: { get: async () => account({ role: 'talent' }), create: jest.fn() }, standing: standing('pending_review'), setExcludedIndustries: set, limit: noRateLimit };
    await expect(updateLikeness(deps, talent, ['politics'])).rejects.toMatchObject({
      status: 403,
      message: 'Your likeness settings open once your talent application is accepted.',
    });
    expect(set).not.toHaveBeenCalled();
  });
});
