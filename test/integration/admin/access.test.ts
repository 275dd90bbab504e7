import { seedUser } from '../../../infra/local/provision';
import { resourcesOfType } from '../../../infra/local/template';
import { idToken, useTwin } from '../../support/twin';

// Every admin route of the template (the review console's and the applications' alike) must
// refuse anyone who is not a signed-in member of the admin group: 401 without a valid token of
// the console's app client, 403 with one that lacks the group or, for an admin, the mark of
// two-factor sign-in. Routes are read from the
// template, so a route added later is covered without editing this file.
jest.setTimeout(300_000);
const twin = useTwin();
const PASSWORD = 'Str0ng!Passw0rd';

/** The console's own routes: if one disappears from the template, this test says so. */
const CONSOLE_ROUTES = [
  'GET /admin/stats',
  'GET /admin/waitlist',
  'GET /admin/waitlist/export',
  'GET /admin/talent',
  'GET /admin/talent/{id}',
  'PATCH /admin/talent/{id}',
  'GET /admin/messages',
  'GET /admin/messages/{id}',
  'PATCH /admin/messages/{id}',
];
const APPLICATION_ROUTES = ['GET /admin/applications', 'GET /admin/applications/{id}', 'POST /admin/applications/{id}/decision'];

const SAMPLE_IDS: Record<string, string> = {
  applications: 'app_aaaaaaaaaaaaaaaaaaaa',
  talent: 'maya-chen',
  messages: '00000000-0000-4000-8000-000000000000',
};

function adminRoutes(): string[] {
  return resourcesOfType(twin().template, 'AWS::ApiGatewayV2::Route')
    .map(([, r]) => String(r.Properties?.RouteKey))
    .filter((key) => key.split(' ')[1]?.startsWith('/admin'))
    .sort();
}

function urlOf(routeKey: string): { method: string; url: string } {
  const [method, pattern] = routeKey.split(' ');
  const resource = pattern.split('/')[2];
  return { method, url: `${twin().urls.api}${pattern.replace('{id}', SAMPLE_IDS[resource] ?? 'x')}` };
}

async function call(routeKey: string, token?: string): Promise<number> {
  const { method, url } = urlOf(routeKey);
  const res = await fetch(url, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(method === 'GET' ? {} : { 'content-type': 'application/json' }) },
    body: method === 'GET' ? undefined : JSON.stringify(method === 'POST' ? { decision: 'accept', note: '' } : { handled: true, featured: false }),
  });
  await res.arrayBuffer();
  return res.status;
}

/** The token with changed claims and its original signature. */
function forge(token: string, changes: Record<string, unknown>): string {
  const [h, p, s] = token.split('.');
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
  return `${h}.${Buffer.from(JSON.stringify({ ...claims, ...changes })).toString('base64url')}.${s}`;
}

/** An unsigned token (`alg: none`) claiming the admin group. */
function unsigned(token: string): string {
  const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ ...claims, 'cognito:groups': ['admin'] })}.`;
}

describe('admin API access', () => {
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    for (const group of ['client', 'talent']) {
      const email = `${group}.access@people.example`;
      await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: PASSWORD, groups: [group] });
      tokens[group] = await idToken(twin(), email, PASSWORD);
      tokens[`${group}Web`] = await idToken(twin(), email, PASSWORD, 'web');
    }
    // An admin who has not turned on two-factor sign-in: their token has no `mfa` mark.
    const plainAdmin = 'admin.without.two-factor@humanly.local';
    await seedUser(twin().urls.cognito, twin().userPoolId, { email: plainAdmin, password: PASSWORD, groups: ['admin'] });
    tokens.adminWithoutTwoFactor = await idToken(twin(), plainAdmin, PASSWORD);
    tokens.admin = await idToken(twin(), twin().admin.email, twin().admin.password);
    tokens.adminWeb = await idToken(twin(), twin().admin.email, twin().admin.password, 'web');
  });

  it('covers the console routes and the applications routes', () => {
    expect(adminRoutes()).toEqual(expect.arrayContaining(CONSOLE_ROUTES));
    const missing = APPLICATION_ROUTES.filter((r) => !adminRoutes().includes(r));
    if (missing.length) console.warn(`applications routes not in the template yet: ${missing.join(', ')}`);
  });

  it('refuses anonymous callers, forged tokens and tokens of the public site with 401', async () => {
    const failures: string[] = [];
    for (const route of adminRoutes()) {
      const answers = {
        anonymous: await call(route),
        garbage: await call(route, 'not.a.jwt'),
        clientClaimingAdmin: await call(route, forge(tokens.client, { 'cognito:groups': ['admin'] })),
        unsignedClientClaimingAdmin: await call(route, unsigned(tokens.client)),
        adminWithLongerLife: await call(route, forge(tokens.admin, { exp: Math.floor(Date.now() / 1000) + 86_400 })),
        adminClaimingTwoFactor: await call(route, forge(tokens.adminWithoutTwoFactor, { mfa: 'totp' })),
        webClientAdmin: await call(route, tokens.adminWeb),
        webClientTalent: await call(route, tokens.talentWeb),
      };
      for (const [who, status] of Object.entries(answers)) if (status !== 401) failures.push(`${route} ${who}: ${status}`);
    }
    expect(failures).toEqual([]);
  });

  it('refuses signed-in clients, talent and admins without two-factor sign-in with 403', async () => {
    const failures: string[] = [];
    for (const route of adminRoutes()) {
      for (const group of ['client', 'talent', 'adminWithoutTwoFactor']) {
        const status = await call(route, tokens[group]);
        if (status !== 403) failures.push(`${route} ${group}: ${status}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('lets an admin through every route (so the refusals above are about the caller)', async () => {
    const failures: string[] = [];
    for (const route of adminRoutes()) {
      const status = await call(route, tokens.admin);
      // 404 for the sample ids and 400/409 for the sample bodies are fine: the caller got in.
      if (status === 401 || status === 403 || status >= 500) failures.push(`${route} admin: ${status}`);
    }
    expect(failures).toEqual([]);
  });
});
