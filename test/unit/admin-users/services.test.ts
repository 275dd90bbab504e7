import { mockClient } from 'aws-sdk-client-mock';
import {
  AdminDisableUserCommand,
  AdminUserGlobalSignOutCommand,
  CognitoIdentityProviderClient,
  UserNotFoundException,
} from '@aws-sdk/client-cognito-identity-provider';
import { AdminGrantRequest, type AdminUserDetail } from '../../../events/accounts';
import { GRANT_CATEGORIES, GRANT_CATEGORY_MESSAGE } from '../../../events/account-values';
import { PROMOTIONAL_CREDIT_VALUE_MICROS, PROMOTIONAL_LOT, TESTING_LOT, type PlanId } from '../../../events/plans';
import { declinePlanRequest, NO_PENDING_PLAN_REQUEST_MESSAGE } from '../../../functions/accounts/routes/decline-plan-request/service';
import { cognitoSignIn } from '../../../functions/accounts/cognito-sign-in';
import { setAccountState, type SignInSwitch } from '../../../functions/accounts/account-state';
import { accountIdOf, actorOf } from '../../../functions/accounts/users';
import { adminGrantKey, adminGrantLot, GRANT_KEY_REQUIRED_MESSAGE, grantCredits, TALENT_HAS_NO_CREDITS_MESSAGE } from '../../../functions/accounts/routes/grant-credits/service';
import { BILLED_BY_STRIPE_MESSAGE, SAME_PLAN_MESSAGE, setUserPlan, TALENT_HAS_NO_PLAN_MESSAGE } from '../../../functions/accounts/routes/update-user/service';
import { validationErrorFrom, type HttpEvent } from '../../../functions/shared/http';
import { ACCOUNT_NOT_FOUND_MESSAGE, type Account, type Actor } from '../../../functions/accounts/store';

const ADMIN: Actor = { sub: 'admin-sub', email: 'reviewer@people.example' };
const CLIENT_ID = '1b3c5d7e-0000-4000-8000-000000000001';
const TALENT_ID = '1b3c5d7e-0000-4000-8000-000000000002';

/** A fake of the accounts store holding one client (on Free) and one talent, recording every change. */
function fakeStore(options: { clientDisabled?: boolean; pending?: boolean } = {}) {
  const at = '2026-11-24T12:00:00.000Z';
  const accounts = new Map<string, Account>([
    [CLIENT_ID, { id: CLIENT_ID, email: 'client@people.example', full_name: 'Ada Client', role: 'client', plan: 'free', disabled: !!options.clientDisabled, createdAt: at, updatedAt: at }],
    [TALENT_ID, { id: TALENT_ID, email: 'talent@people.example', full_name: 'Tia Talent', role: 'talent', disabled: false, createdAt: at, updatedAt: at }],
  ]);
  const changes: string[] = [];
  const store = {
    get: async (id: string) => accounts.get(id),
    detail: async (id: string): Promise<AdminUserDetail | undefined> => {
      const a = accounts.get(id);
      return a && { id: a.id, email: a.email, full_name: a.full_name, role: a.role, plan: a.plan, disabled: a.disabled, createdAt: a.createdAt, ledger: [], audit: [] };
    },
    setPlan: async (id: string, plan: PlanId, by: Actor) => {
      changes.push(`plan ${id} ${plan} by ${by.email}`);
      accounts.set(id, { ...accounts.get(id)!, plan });
      return accounts.get(id)!;
    },
    setDisabled: async (id: string, disabled: boolean, by: Actor, reason?: string) => {
      changes.push(`disabled=${disabled} ${id} by ${by.email} reason=${reason ?? '-'}`);
      accounts.set(id, { ...accounts.get(id)!, disabled });
      return accounts.get(id)!;
    },
    pendingPlanRequest: async () => (options.pending ? { id: 'r1', plan: 'pro' as const, status: 'pending' as const, requestedAt: at } : undefined),
    declinePlanRequest: async (id: string, by: Actor) => {
      changes.push(`decline ${id} by ${by.email}`);
    },
  };
  return { store, changes };
}

function fakeSignIn() {
  const calls: string[] = [];
  const signIn: SignInSwitch = {
    disable: async (id) => void calls.push(`disable ${id}`),
    enable: async (id) => void calls.push(`enable ${id}`),
    signOutEverywhere: async (id) => void calls.push(`sign out ${id}`),
  };
  return { signIn, calls };
}

describe('setting a plan', () => {
  it("sets a client's plan in the store, named after the admin, and answers the detail", async () => {
    const { store, changes } = fakeStore();
    const detail = await setUserPlan(store, CLIENT_ID, 'pro', ADMIN);
    expect(changes).toEqual([`plan ${CLIENT_ID} pro by reviewer@people.example`]);
    expect(detail).toMatchObject({ id: CLIENT_ID, plan: 'pro' });
  });

  it('refuses a talent account with 409 and changes nothing', async () => {
    const { store, changes } = fakeStore();
    await expect(setUserPlan(store, TALENT_ID, 'pro', ADMIN)).rejects.toMatchObject({ status: 409, message: TALENT_HAS_NO_PLAN_MESSAGE });
    expect(changes).toEqual([]);
  });

  it('refuses the plan the client is already on with 409', async () => {
    const { store, changes } = fakeStore();
    await expect(setUserPlan(store, CLIENT_ID, 'free', ADMIN)).rejects.toMatchObject({ status: 409, message: SAME_PLAN_MESSAGE('Free') });
    expect(changes).toEqual([]);
  });

  it('refuses a client whose plan a Stripe subscription sets, and changes nothing', async () => {
    const { store, changes } = fakeStore();
    const client = (await store.get(CLIENT_ID))!;
    Object.assign(client, { plan: 'starter', billing: 'stripe', subscriptionId: 'sub_1' });
    await expect(setUserPlan(store, CLIENT_ID, 'pro', ADMIN)).rejects.toMatchObject({ status: 409, message: BILLED_BY_STRIPE_MESSAGE });
    expect(changes).toEqual([]);
  });

  it('answers 404 for an unknown account', async () => {
    const { store } = fakeStore();
    await expect(setUserPlan(store, 'nobody', 'pro', ADMIN)).rejects.toMatchObject({ status: 404, message: ACCOUNT_NOT_FOUND_MESSAGE });
  });
});

describe('granting credits', () => {
  const entry = { id: 'e1', kind: 'grant' as const, credits: 25, balanceAfter: 35, reason: 'Launch thanks', at: '2026-11-24T12:00:00.000Z', by: ADMIN.email };

  it("passes the grant to the ledger under the console's key, naming the admin, as a promotional lot of its category", async () => {
    const { store } = fakeStore();
    const grants: unknown[] = [];
    const lots = [{ credits: 25, ...PROMOTIONAL_LOT }];
    const ledger = { grant: async (id: string, change: unknown) => (grants.push({ id, change }), { entry, balance: 35, lots, replayed: false }) };
    const result = await grantCredits({ accounts: store, ledger }, CLIENT_ID, { credits: 25, category: 'goodwill', reason: 'Launch thanks', key: 'k-1' }, ADMIN);
    expect(grants).toEqual([
      { id: CLIENT_ID, change: { credits: 25, reason: 'Launch thanks', key: adminGrantKey('k-1'), lot: PROMOTIONAL_LOT, category: 'goodwill', by: ADMIN } },
    ]);
    expect(result).toEqual({ entry, balance: 35, lots, replayed: false });
  });

  it('grants promotional credits at the cheapest paid credit, and testing credits worth nothing that earn no royalty', () => {
    for (const category of GRANT_CATEGORIES.filter((c) => c !== 'testing')) {
      expect(adminGrantLot(category)).toEqual({ valueMicros: PROMOTIONAL_CREDIT_VALUE_MICROS, kind: 'promotional' });
    }
    expect(adminGrantLot('testing')).toEqual({ valueMicros: 0, kind: 'promotional', noRoyalty: 'testing-grant' });
    expect(adminGrantLot('testing')).toBe(TESTING_LOT);
  });

  it('the request needs a reason category of the list and a reason; each refusal names its field', () => {
    const fieldsOf = (body: unknown) => {
      const parsed = AdminGrantRequest.safeParse(body);
      return parsed.success ? undefined : validationErrorFrom(parsed.error).fields;
    };
    expect(AdminGrantRequest.parse({ credits: 5, category: 'testing', reason: ' QA run ' })).toEqual({ credits: 5, category: 'testing', reason: 'QA run' });
    expect(fieldsOf({ credits: 5, reason: 'Launch thanks' })).toEqual({ category: GRANT_CATEGORY_MESSAGE });
    expect(fieldsOf({ credits: 5, category: 'bribe', reason: 'Launch thanks' })).toEqual({ category: GRANT_CATEGORY_MESSAGE });
    expect(GRANT_CATEGORY_MESSAGE).toBe('category must be one of goodwill, compensation, promotion, testing');
    expect(fieldsOf({ credits: 5, category: 'goodwill', reason: 'ok' })).toEqual({ reason: 'Give a reason of at least 3 characters.' });
  });

  it('refuses a grant without an Idempotency-Key with 400 naming the header, before touching anything', async () => {
    const { store } = fakeStore();
    const ledger = { grant: jest.fn() };
    await expect(grantCredits({ accounts: store, ledger }, CLIENT_ID, { credits: 5, category: 'goodwill', reason: 'Thanks', key: undefined }, ADMIN)).rejects.toMatchObject({
      status: 400,
      message: GRANT_KEY_REQUIRED_MESSAGE,
      fields: { 'Idempotency-Key': GRANT_KEY_REQUIRED_MESSAGE },
    });
    expect(ledger.grant).not.toHaveBeenCalled();
  });

  it('refuses a talent account with 409 (talent hold no credits), and an unknown one with 404', async () => {
    const { store } = fakeStore();
    const ledger = { grant: jest.fn() };
    await expect(grantCredits({ accounts: store, ledger }, TALENT_ID, { credits: 5, category: 'goodwill', reason: 'Thanks', key: 'k' }, ADMIN)).rejects.toMatchObject({
      status: 409,
      message: TALENT_HAS_NO_CREDITS_MESSAGE,
    });
    await expect(grantCredits({ accounts: store, ledger }, 'nobody', { credits: 5, category: 'goodwill', reason: 'Thanks', key: 'k' }, ADMIN)).rejects.toMatchObject({ status: 404 });
    expect(ledger.grant).not.toHaveBeenCalled();
  });
});

describe('disabling and enabling', () => {
  it('disables sign-in, signs the person out everywhere, then flags the account with the reason', async () => {
    const { store, changes } = fakeStore();
    const { signIn, calls } = fakeSignIn();
    const detail = await setAccountState({ accounts: store, signIn }, CLIENT_ID, true, '  Chargeback  ', ADMIN);
    expect(calls).toEqual([`disable ${CLIENT_ID}`, `sign out ${CLIENT_ID}`]);
    expect(changes).toEqual([`disabled=true ${CLIENT_ID} by reviewer@people.example reason=Chargeback`]);
    expect(detail.disabled).toBe(true);
  });

  it('enables sign-in and clears the flag; an empty reason is no reason', async () => {
    const { store, changes } = fakeStore({ clientDisabled: true });
    const { signIn, calls } = fakeSignIn();
    await setAccountState({ accounts: store, signIn }, CLIENT_ID, false, ' ', ADMIN);
    expect(calls).toEqual([`enable ${CLIENT_ID}`]);
    expect(changes).toEqual([`disabled=false ${CLIENT_ID} by reviewer@people.example reason=-`]);
  });

  it('records nothing new when the account is already in that state (a repeated click is one change)', async () => {
    const { store, changes } = fakeStore({ clientDisabled: true });
    const { signIn, calls } = fakeSignIn();
    await setAccountState({ accounts: store, signIn }, CLIENT_ID, true, undefined, ADMIN);
    expect(calls).toEqual([`disable ${CLIENT_ID}`, `sign out ${CLIENT_ID}`]);
    expect(changes).toEqual([]);
  });

  it('answers 404 for an unknown account without touching the user pool', async () => {
    const { store } = fakeStore();
    const { signIn, calls } = fakeSignIn();
    await expect(setAccountState({ accounts: store, signIn }, 'nobody', true, undefined, ADMIN)).rejects.toMatchObject({ status: 404 });
    expect(calls).toEqual([]);
  });

  it("uses the account's id as the pool's username, and takes a user gone from the pool as nothing to do", async () => {
    const cognito = mockClient(CognitoIdentityProviderClient);
    try {
      cognito.on(AdminDisableUserCommand).resolves({});
      cognito.on(AdminUserGlobalSignOutCommand).rejects(new UserNotFoundException({ message: 'User does not exist.', $metadata: {} }));
      const signIn = cognitoSignIn('pool-1');
      await signIn.disable(CLIENT_ID);
      await expect(signIn.signOutEverywhere(CLIENT_ID)).resolves.toBeUndefined();
      expect(cognito.commandCalls(AdminDisableUserCommand)[0]!.args[0].input).toEqual({ UserPoolId: 'pool-1', Username: CLIENT_ID });
      cognito.on(AdminDisableUserCommand).rejects(Object.assign(new Error('throttled'), { name: 'TooManyRequestsException' }));
      await expect(signIn.disable(CLIENT_ID)).rejects.toThrow('throttled');
    } finally {
      cognito.restore();
    }
  });
});

describe('declining a plan request', () => {
  it('declines a pending request, named after the admin', async () => {
    const { store, changes } = fakeStore({ pending: true });
    await declinePlanRequest(store, CLIENT_ID, ADMIN);
    expect(changes).toEqual([`decline ${CLIENT_ID} by reviewer@people.example`]);
  });

  it('answers 409 when nothing is pending, and 404 for an unknown account', async () => {
    const { store, changes } = fakeStore();
    await expect(declinePlanRequest(store, CLIENT_ID, ADMIN)).rejects.toMatchObject({ status: 409, message: NO_PENDING_PLAN_REQUEST_MESSAGE });
    await expect(declinePlanRequest(store, 'nobody', ADMIN)).rejects.toMatchObject({ status: 404 });
    expect(changes).toEqual([]);
  });
});

describe('request parts', () => {
  const event = (id: string) => ({ pathParameters: { id } }) as unknown as HttpEvent;

  it('takes a well-formed id from the path and answers 404 for anything no account can have', () => {
    expect(accountIdOf(event(CLIENT_ID))).toBe(CLIENT_ID);
    for (const bad of ['', '../x', 'a'.repeat(65), 'a b']) expect(() => accountIdOf(event(bad))).toThrow(ACCOUNT_NOT_FOUND_MESSAGE);
  });

  it("names the admin by the token's email", () => {
    expect(actorOf({ sub: 's', email: 'reviewer@people.example', groups: ['admin'], mfa: true })).toEqual({ sub: 's', email: 'reviewer@people.example' });
  });
});
