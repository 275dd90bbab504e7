import { ConfirmSignUpCommand, SignUpCommand } from '@aws-sdk/client-cognito-identity-provider';
import { seedUser } from '../../../infra/local/provision';
import { latestCognitoCode } from '../../support/cognito-mail';
import { cognitoClient, idToken, useTwin } from '../../support/twin';
import { joinWaitlist } from '../../support/waitlist';

// A twin of its own: the dashboard counts every signup.
const twin = useTwin({ own: true });
const stats = (token?: string) =>
  fetch(`${twin().urls.api}/admin/stats`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

describe('admin API access', () => {
  it('answers an admin with the dashboard figures', async () => {
    await joinWaitlist(twin(), { email: 'first@fan.example' });
    const token = await idToken(twin(), twin().admin.email, twin().admin.password);
    const res = await stats(token);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ waitlist: { count: 1, capacity: 200 } });
  });

  it('refuses anonymous callers and forged or foreign tokens with 401', async () => {
    expect((await stats()).status).toBe(401);
    expect((await stats('not.a.jwt')).status).toBe(401);
    const token = await idToken(twin(), twin().admin.email, twin().admin.password);
    const [h, p] = token.split('.');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, 'cognito:groups': ['admin', 'x'] })).toString('base64url')}.${token.split('.')[2]}`;
    expect((await stats(forged)).status).toBe(401);
    // A token of the public site's app client is not for the console's routes.
    const webToken = await idToken(twin(), twin().admin.email, twin().admin.password, 'web');
    expect((await stats(webToken)).status).toBe(401);
  });

  it('lets an admin in only when the sign-in passed two-factor sign-in (the token carries the mark)', async () => {
    const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
    const email = 'new.admin@humanly.local';
    await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: 'Str0ng!Passw0rd', groups: ['admin'] });
    const plain = await idToken(twin(), email, 'Str0ng!Passw0rd');
    expect(claimsOf(plain).mfa).toBeUndefined();
    const refused = await stats(plain);
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toMatch(/^Turn on two-factor sign-in/);

    // The seeded admin has TOTP on: Cognito asked for the code and the trigger marked the token.
    const marked = await idToken(twin(), twin().admin.email, twin().admin.password);
    expect(claimsOf(marked).mfa).toBe('totp');
    expect((await stats(marked)).status).toBe(200);
  });

  it('refuses signed-in clients and talent with 403', async () => {
    for (const group of ['client', 'talent']) {
      const email = `${group}@people.example`;
      await seedUser(twin().urls.cognito, twin().userPoolId, { email, password: 'Str0ng!Passw0rd', groups: [group] });
      const res = await stats(await idToken(twin(), email, 'Str0ng!Passw0rd'));
      expect(res.status).toBe(403);
      expect((await res.json()).error).toMatch(/admin role/);
    }
  });
});

describe('self sign-up', () => {
  const signUp = (email: string, role: string) =>
    cognitoClient(twin()).send(
      new SignUpCommand({
        ClientId: twin().clientIds.web,
        Username: email,
        Password: 'Str0ng!Passw0rd',
        UserAttributes: [
          { Name: 'email', Value: email },
          { Name: 'custom:role', Value: role },
        ],
      }),
    );

  it('can never make an administrator', async () => {
    await expect(signUp('sneaky@people.example', 'admin')).rejects.toThrow(/client or talent/);
  });

  it('puts a confirmed talent sign-up in the talent group', async () => {
    await signUp('new.talent@people.example', 'talent');
    const code = await latestCognitoCode(twin(), 'new.talent@people.example');
    await cognitoClient(twin()).send(new ConfirmSignUpCommand({ ClientId: twin().clientIds.web, Username: 'new.talent@people.example', ConfirmationCode: code }));
    // The groups claim of a fresh sign-in is what the API sees.
    const token = await idToken(twin(), 'new.talent@people.example', 'Str0ng!Passw0rd', 'web');
    const claims = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString());
    expect(claims['cognito:groups']).toEqual(['talent']);
  });
});
