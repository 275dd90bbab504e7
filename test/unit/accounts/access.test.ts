// Who may call the /me routes, from the authorizer's claims only; the account every route starts
// from; a talent's standing (docs/product.md#accounts).
import type { PostConfirmationTriggerEvent } from 'aws-lambda';
import { ACCOUNT_DISABLED_MESSAGE, callerTalent, currentAccount, NO_LIKENESS_MESSAGE, talentStanding, type StandingDeps } from '../../../functions/accounts/access';
import { NO_ACCOUNT_ROLE_MESSAGE, requireAccount, requireRole } from '../../../functions/shared/auth';
import type { HttpEvent } from '../../../functions/shared/http';
import type { Account } from '../../../functions/accounts/store';
import type { StoredApplication } from '../../../functions/founding/store';

const withClaims = (claims?: Record<string, unknown>) =>
  ({ requestContext: { authorizer: claims ? { jwt: { claims } } : undefined } }) as unknown as HttpEvent;

describe('requireAccount and requireRole', () => {
  it('read sub, email, role, the confirmed email and the name from the claims', () => {
    expect(requireAccount(withClaims({ sub: 's1', email: 'a@b.example', email_verified: 'true', name: ' Ada ', 'cognito:groups': '[client]' }))).toEqual({
      sub: 's1',
      email: 'a@b.example',
      role: 'client',
      emailVerified: true,
      name: 'Ada',
    });
    expect(requireAccount(withClaims({ sub: 's2', email: 'a@b.example', email_verified: false, 'cognito:groups': ['talent'] }))).toEqual({
      sub: 's2',
      email: 'a@b.example',
      role: 'talent',
      emailVerified: false,
    });
  });

  it('refuses anonymous callers with 401 and callers with neither role (an admin) with 403', () => {
    expect(() => requireAccount(withClaims())).toThrow(expect.objectContaining({ status: 401 }));
    expect(() => requireAccount(withClaims({ sub: 's', email: 'a@b.example', 'cognito:groups': '[admin]' }))).toThrow(
      expect.objectContaining({ status: 403, message: NO_ACCOUNT_ROLE_MESSAGE }),
    );
    expect(() => requireAccount(withClaims({ sub: 's', email: 'a@b.example' }))).toThrow(expect.objectContaining({ status: 403 }));
  });

  it('requireRole lets the role through and refuses the other with a clear 403', () => {
    const client = withClaims({ sub: 's', email: 'a@b.example', 'cognito:groups': '[client]' });
    const talent = withClaims({ sub: 't', email: 't@b.example', 'cognito:groups': '[talent]' });
    expect(requireRole(client, 'client').role).toBe('client');
    expect(requireRole(talent, 'talent').role).toBe('talent');
    expect(() => requireRole(talent, 'client')).toThrow(
      expect.objectContaining({ status: 403, message: 'This is for client accounts: talent accounts have no plan or credits.' }),
    );
    expect(() => requireRole(client, 'talent')).toThrow(expect.objectContaining({ status: 403, message: 'This is for talent accounts.' }));
  });
});

const account = (over: Partial<Account> = {}): Account => ({
  id: 's1',
  email: 'a@b.example',
  full_name: 'Ada',
  role: 'client',
  plan: 'free',
  disabled: false,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

describe('currentAccount', () => {
  const caller = { sub: 's1', email: 'a@b.example', role: 'talent' as const, emailVerified: true, name: 'Tia Talent' };

  it('creates the account from the claims the first time (invited people never confirm a sign-up)', async () => {
    const create = jest.fn(async (input: { id: string; email: string; full_name: string; role: 'client' | 'talent' }) => ({
      account: account({ ...input, plan: undefined }),
      created: true,
    }));
    const got = await currentAccount({ get: async () => undefined, create }, caller);
    expect(create).toHaveBeenCalledWith({ id: 's1', email: 'a@b.example', full_name: 'Tia Talent', role: 'talent' });
    expect(got.full_name).toBe('Tia Talent');
  });

  it('refuses a disabled account with 403', async () => {
    const create = jest.fn();
    await expect(currentAccount({ get: async () => account({ disabled: true }), create }, caller)).rejects.toMatchObject({
      status: 403,
      message: ACCOUNT_DISABLED_MESSAGE,
    });
    expect(create).not.toHaveBeenCalled();
  });
});

describe('talentStanding', () => {
  const app = (status: StoredApplication['status'], talentId?: string): StoredApplication => ({
    id: 'app_1',
    program: 'standard',
    status,
    firstName: 'Tia',
    email: 'tia@b.example',
    submittedAt: '2026-01-02T00:00:00.000Z',
    imagePaths: [],
    ...(talentId ? { talentId } : {}),
  });
  const deps = (application?: StoredApplication, excluded: Array<'religion' | 'politics' | 'alcohol'> | null = ['alcohol']): StandingDeps & { locks: string[] } => {
    const locks: string[] = [];
    return {
      locks,
      founding: {
        getEmailLock: async (email) => {
          locks.push(email);
          return application ? { applicationId: application.id, fingerprint: 'f', submittedAt: application.submittedAt, response: { success: true, applicationId: application.id } } : undefined;
        },
        getApplication: async () => application!,
      },
      talent: {
        get: async (id) => ({ id, name: 'Tia', image: '/t.svg', tagline: 't', bio: 'b', generationCount: 0, featured: false, tags: [], samples: [], founding: true, royaltyPlan: 'founding-35', status: 'active' }),
        getExcludedIndustries: async () => excluded ?? undefined,
      },
    };
  };
  const verified = { email: ' Tia@B.example ', emailVerified: true };

  it('is none without an application, applied while reviewed or not accepted, accepted with the likeness', async () => {
    const none = deps();
    expect(await talentStanding(none, verified)).toEqual({ access: 'none' });
    expect(none.locks).toEqual(['tia@b.example']);
    const application = { id: 'app_1', submittedAt: '2026-01-02T00:00:00.000Z' };
    expect(await talentStanding(deps(app('pending_review')), verified)).toEqual({ access: 'applied', application: { ...application, status: 'pending_review' } });
    expect(await talentStanding(deps(app('rejected')), verified)).toEqual({ access: 'applied', application: { ...application, status: 'rejected' } });
    expect(await talentStanding(deps(app('accepted', 'tia')), verified)).toEqual({
      access: 'accepted',
      application: { ...application, status: 'accepted' },
      likeness: { talentId: 'tia', name: 'Tia', status: 'active', founding: true, excludedIndustries: ['alcohol'] },
    });
  });

  it('shows the exclusions chosen on the application until the talent saves their own', async () => {
    const chosen = { ...app('accepted', 'tia'), excludedIndustries: ['politics'] } as StoredApplication;
    expect((await talentStanding(deps(chosen, null), verified)).likeness?.excludedIndustries).toEqual(['politics']);
    expect((await talentStanding(deps(chosen, []), verified)).likeness?.excludedIndustries).toEqual([]);
    expect((await talentStanding(deps(app('accepted', 'tia'), null), verified)).likeness?.excludedIndustries).toEqual([]);
  });

  it('counts only a confirmed email', async () => {
    const d = deps(app('accepted', 'tia'));
    expect(await talentStanding(d, { ...verified, emailVerified: false })).toEqual({ access: 'none' });
    expect(d.locks).toEqual([]);
  });

  describe('callerTalent', () => {
    const caller = { sub: 's1', email: 'tia@b.example', role: 'talent' as const, emailVerified: true };
    const accounts = (over: Partial<Account> = {}) => ({ get: async () => account({ role: 'talent', ...over }), create: jest.fn() });

    it("gives the caller's account, likeness and catalog talent, reading the talent once", async () => {
      const standing = deps(app('accepted', 'tia'));
      const get = jest.spyOn(standing.talent, 'get');
      const found = await callerTalent({ accounts: accounts(), standing }, caller);
      expect(found.account.id).toBe('s1');
      expect(found.likeness).toEqual({ talentId: 'tia', name: 'Tia', status: 'active', founding: true, excludedIndustries: ['alcohol'] });
      expect(found.talent).toMatchObject({ id: 'tia', royaltyPlan: 'founding-35' });
      expect(get).toHaveBeenCalledTimes(1);
    });

    it('refuses a disabled account and anyone not accepted with 403, an accepted talent not in the catalog with 409', async () => {
      await expect(callerTalent({ accounts: accounts({ disabled: true }), standing: deps(app('accepted', 'tia')) }, caller)).rejects.toMatchObject({ status: 403, message: ACCOUNT_DISABLED_MESSAGE });
      await expect(callerTalent({ accounts: accounts(), standing: deps(app('pending_review')) }, caller)).rejects.toMatchObject({ status: 403 });
      await expect(callerTalent({ accounts: accounts(), standing: deps() }, caller)).rejects.toMatchObject({ status: 403 });
      await expect(callerTalent({ accounts: accounts(), standing: deps(app('accepted')) }, caller)).rejects.toMatchObject({ status: 409, message: NO_LIKENESS_MESSAGE });
      const gone = { ...deps(app('accepted', 'tia')), talent: { get: async () => undefined, getExcludedIndustries: async () => undefined } };
      await expect(callerTalent({ accounts: accounts(), standing: gone }, caller)).rejects.toMatchObject({ status: 409, message: NO_LIKENESS_MESSAGE });
    });
  });
});

describe('post-confirmation', () => {
  let trigger: typeof import('../../../functions/accounts/triggers/post-confirmation/handler');
  beforeAll(async () => {
    process.env.ACCOUNTS_TABLE = 'Accounts';
    trigger = await import('../../../functions/accounts/triggers/post-confirmation/handler');
  });
  const event = (attributes: Record<string, string>, triggerSource = 'PostConfirmation_ConfirmSignUp') =>
    ({ triggerSource, userPoolId: 'pool', userName: 'u', request: { userAttributes: { sub: 's1', email: 'a@b.example', ...attributes } }, response: {} }) as unknown as PostConfirmationTriggerEvent;

  it('creates the account with the chosen role and name, then adds the group', async () => {
    const calls: string[] = [];
    const create = jest.fn(async () => {
      calls.push('create');
      return { account: account(), created: true };
    });
    await trigger.confirmAccount({ accounts: { create }, addToGroup: async (r) => void calls.push(`group:${r}`) }, event({ 'custom:role': 'talent', name: ' Tia ' }));
    expect(create).toHaveBeenCalledWith({ id: 's1', email: 'a@b.example', full_name: 'Tia', role: 'talent' });
    expect(calls).toEqual(['create', 'group:talent']);
  });

  it('makes a first Google sign-in a client; does nothing for other roles or other trigger sources', async () => {
    expect(trigger.roleOf({ identities: '[{"providerName":"Google"}]' })).toBe('client');
    expect(trigger.roleOf({ 'custom:role': 'client' })).toBe('client');
    expect(trigger.roleOf({ 'custom:role': 'admin' })).toBeUndefined();
    expect(trigger.roleOf({ 'custom:role': 'admin', identities: '[]' })).toBeUndefined();
    expect(trigger.roleOf({})).toBeUndefined();
    const create = jest.fn();
    const addToGroup = jest.fn();
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    await trigger.confirmAccount({ accounts: { create }, addToGroup }, event({ 'custom:role': 'admin' }));
    await trigger.confirmAccount({ accounts: { create }, addToGroup }, event({ 'custom:role': 'client' }, 'PostConfirmation_ConfirmForgotPassword'));
    expect(create).not.toHaveBeenCalled();
    expect(addToGroup).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledTimes(1);
    warn.mockRestore();
  });
});
