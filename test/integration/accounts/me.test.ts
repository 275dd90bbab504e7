// The /me routes and the post-confirmation trigger on the twin: the real functions, the pool's
// tokens through the site's authorizer, DynamoDB Local (docs/product.md#accounts).
import { AdminListGroupsForUserCommand } from '@aws-sdk/client-cognito-identity-provider';
import { seedUser } from '../../../infra/local/provision';
import { newApplicationId } from '../../../functions/founding/keys';
import { accountStore } from '../../../functions/accounts/store';
import { foundingStore } from '../../../functions/founding/store';
import { talentStore } from '../../../functions/catalog/store';
import { callApi, cognitoClient, documentClient, idToken, useTwin } from '../../support/twin';
import { fileMarker } from '../../support/marker';

jest.setTimeout(180_000);
const twin = useTwin();
const PASSWORD = 'Str0ng!Passw0rd-me';
const run = fileMarker('me');
const emailOf = (who: string) => `${who}.${run}@people.example`;

const accounts = () => accountStore(documentClient(twin()), twin().physicalName('AccountsTable'));

/** The status and JSON body only: the tests compare them whole. */
async function call(token: string, method: string, path: string, body?: unknown) {
  const { status, json } = await callApi(twin(), token, method, path, body);
  return { status, json };
}

/** Runs the pool's post-confirmation function as Cognito does after a confirmed sign-up. */
async function confirm(user: { username: string; sub: string }, attributes: Record<string, string>) {
  const fn = twin().functions().find((f) => f.logicalId.startsWith('AccountsPostConfirmation'));
  if (!fn) throw new Error('no post-confirmation function in the template');
  return twin().invoke(fn.arn, {
    version: '1',
    triggerSource: 'PostConfirmation_ConfirmSignUp',
    region: 'us-east-1',
    userPoolId: twin().userPoolId,
    userName: user.username,
    callerContext: { awsSdkVersion: '3', clientId: twin().clientIds.web },
    request: { userAttributes: { sub: user.sub, email_verified: 'true', ...attributes } },
    response: {},
  });
}

const groupsOf = async (username: string) =>
  (await cognitoClient(twin()).send(new AdminListGroupsForUserCommand({ UserPoolId: twin().userPoolId, Username: username }))).Groups?.map((g) => g.GroupName);

describe('a client confirmed by sign-up', () => {
  it('gets the Free plan and its 10 credits once, however often the trigger runs, and sees them on /me', async () => {
    const email = emailOf('client');
    const user = await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: PASSWORD, groups: [], name: 'Ada Client' });
    const attributes = { email, name: 'Ada Client', 'custom:role': 'client' };
    await confirm({ username: user.username, sub: user.sub! }, attributes);
    await confirm({ username: user.username, sub: user.sub! }, attributes);
    expect(await groupsOf(user.username)).toEqual(['client']);

    const token = await idToken(twin(), email, PASSWORD, 'web');
    const me = await call(token, 'GET', '/me');
    expect(me.status).toBe(200);
    expect(me.json).toEqual({
      profile: { id: user.sub, full_name: 'Ada Client', email, createdAt: expect.any(String) },
      role: 'client',
      plan: { id: 'free', name: 'Free' },
      credits: { balance: 10 },
    });
    const ledger = await call(token, 'GET', '/me/ledger');
    expect(ledger.json).toEqual({ entries: [expect.objectContaining({ kind: 'grant', credits: 10, balanceAfter: 10, reason: 'Free plan credits' })] });
    expect((await call(token, 'GET', '/me/ledger?limit=0')).status).toBe(400);

    // Profile: the name changes; a blank one is refused naming the field.
    const renamed = await call(token, 'PATCH', '/me', { full_name: '  Ada Lovelace ' });
    expect(renamed).toEqual({ status: 200, json: expect.objectContaining({ full_name: 'Ada Lovelace', email }) });
    const blank = await call(token, 'PATCH', '/me', { full_name: ' ' });
    expect(blank).toEqual({ status: 400, json: expect.objectContaining({ error: 'Enter your full name.', fields: { full_name: 'Enter your full name.' } }) });
    expect((await call(token, 'PATCH', '/me', { full_name: 'A', email: 'x@y.example' })).status).toBe(400);

    // Plans are bought through Checkout now: the old request route is gone.
    expect((await call(token, 'POST', '/me/plan-requests', { plan: 'pro' })).status).toBe(404);

    // A script renaming the account over and over is stopped at 30 changes an hour, and the name stays the last one saved.
    const renames: number[] = [];
    for (let i = 0; i < 30; i++) renames.push((await call(token, 'PATCH', '/me', { full_name: `Ada ${i}` })).status);
    // One rename above already counted.
    expect(renames.filter((s) => s === 200)).toHaveLength(29);
    expect(renames.at(-1)).toBe(429);
    expect((await call(token, 'PATCH', '/me', { full_name: 'Ada Again' })).json.error).toMatch(/30 changes in the last hour/);
    expect((await call(token, 'GET', '/me')).json.profile.full_name).toBe('Ada 28');

    // Likeness settings are for accepted talent only.
    expect((await call(token, 'PATCH', '/me/likeness', { excludedIndustries: [] })).status).toBe(403);

    // A disabled account is refused on every /me route.
    await accounts().setDisabled(user.sub!, true, { sub: 'admin', email: 'admin@people.example' }, 'Test');
    for (const [method, path, body] of [['GET', '/me'], ['PATCH', '/me', { full_name: 'Ada' }], ['GET', '/me/ledger'], ['GET', '/me/billing']] as const) {
      expect(await call(token, method, path, body)).toEqual({ status: 403, json: { error: 'This account is disabled. Contact support.' } });
    }
  });

  it('a first Google sign-in (no role, an external identity) becomes a client', async () => {
    const email = emailOf('google');
    const user = await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: PASSWORD, groups: [] });
    await confirm({ username: user.username, sub: user.sub! }, { email, name: 'Grace Google', identities: '[{"providerName":"Google","userId":"1"}]' });
    expect(await groupsOf(user.username)).toEqual(['client']);
    expect(await accounts().get(user.sub!)).toMatchObject({ role: 'client', plan: 'free', full_name: 'Grace Google' });
  });
});

describe('a talent', () => {
  it('invited (never confirmed a sign-up): GET /me creates the account; standing follows the application; likeness saved on the catalog', async () => {
    const email = emailOf('talent');
    const user = await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: PASSWORD, groups: ['talent'], name: 'Tia Talent', attributes: { 'custom:role': 'talent' } });
    const token = await idToken(twin(), email, PASSWORD, 'web');

    const first = await call(token, 'GET', '/me');
    // (The twin's id tokens carry no `name` claim, so the name is checked in the unit tests.)
    expect(first).toEqual({ status: 200, json: { profile: expect.objectContaining({ id: user.sub, email }), role: 'talent', talent: { access: 'none' } } });
    expect(await accounts().get(user.sub!)).toMatchObject({ role: 'talent', disabled: false });
    expect((await accounts().get(user.sub!))?.plan).toBeUndefined();
    expect(await call(token, 'GET', '/me/ledger')).toEqual({ status: 403, json: { error: 'This is for client accounts: talent accounts have no plan or credits.' } });
    expect((await call(token, 'PATCH', '/me/likeness', { excludedIndustries: ['alcohol'] })).status).toBe(403);

    // An application under the address, under review: applied.
    const doc = documentClient(twin());
    const founding = foundingStore(doc, twin().physicalName('FoundingApplicationsTable'));
    const talentId = `me-${run}`;
    const applicationId = newApplicationId();
    const now = new Date().toISOString();
    await founding.createApplication(
      { id: applicationId, program: 'standard', status: 'pending_review', firstName: 'Tia', email, submittedAt: now, imagePaths: [] },
      { applicationId, fingerprint: run, submittedAt: now, response: { success: true, applicationId } },
    );
    expect((await call(token, 'GET', '/me')).json.talent).toEqual({ access: 'applied', application: { id: applicationId, status: 'pending_review', submittedAt: now } });

    // Accepted, with a catalog item (hidden, as a newly accepted talent is: an active one would
    // join the shared twin's Talent Library): the likeness opens.
    const catalog = talentStore(doc, twin().physicalName('CatalogTalentTable'));
    await catalog.create({ id: talentId, name: 'Tia Talent', image: '/talent/tia.svg', tagline: 'Portraits', bio: 'Portraits.', generationCount: 0, featured: false, tags: [], samples: [], founding: false, royaltyPlan: 'standard-tiers', status: 'hidden' });
    await founding.recordTalentCreated(applicationId, talentId);
    const accepted = await call(token, 'GET', '/me');
    expect(accepted.json.talent).toMatchObject({ access: 'accepted', likeness: { talentId, name: 'Tia Talent', status: 'hidden', founding: false, excludedIndustries: [] } });

    const saved = await call(token, 'PATCH', '/me/likeness', { excludedIndustries: ['politics', 'alcohol', 'politics'] });
    expect(saved).toEqual({ status: 200, json: expect.objectContaining({ talentId, excludedIndustries: ['politics', 'alcohol'] }) });
    expect(await catalog.getExcludedIndustries(talentId)).toEqual(['politics', 'alcohol']);
    // The catalog still reads the item (the public answers never show the exclusions: test/unit/functions/get-talent.test.ts).
    expect(await catalog.get(talentId)).toMatchObject({ id: talentId, status: 'hidden' });
    const bad = await call(token, 'PATCH', '/me/likeness', { excludedIndustries: ['tobacco'] });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toMatch(/excluded industries are religion, politics, alcohol/);
  });
});

describe('callers without an account role', () => {
  it('an admin token on the site client gets 403 naming the roles', async () => {
    const token = await idToken(twin(), twin().admin.email, twin().admin.password, 'web');
    expect(await call(token, 'GET', '/me')).toEqual({ status: 403, json: { error: 'This needs a client or talent account; your sign-in has neither role.' } });
  });
});
