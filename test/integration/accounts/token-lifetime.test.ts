import { GetTokensFromRefreshTokenCommand, GlobalSignOutCommand, InitiateAuthCommand } from '@aws-sdk/client-cognito-identity-provider';
import { seedUser } from '../../../infra/local/provision';
import { eventually } from '../../support/eventually';
import { cognitoClient, useTwin } from '../../support/twin';

// A twin whose site tokens last 3 seconds (the option the session e2e tests use): a token
// expires, the refresh through the twin's Cognito front gives a working one, and after
// sign-out everywhere the refresh token is dead.
const LIFETIME = 3;
const twin = useTwin({ own: true, tokenLifetimeSeconds: LIFETIME });
const person = { email: 'short.lived@people.example', password: 'Str0ng!Passw0rd' };
const claims = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8'));
/** A call to an account route through the gateway's JWT authorizer. */
const me = (token: string) => fetch(`${twin().urls.api}/me`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);

it('a session outlives its tokens through refresh, until the person signs out everywhere', async () => {
  await seedUser(twin().urls.cognito, twin().userPoolId, { ...person, groups: ['client'] });
  const cognito = cognitoClient(twin());
  const signedIn = await cognito.send(
    new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: twin().clientIds.web, AuthParameters: { USERNAME: person.email, PASSWORD: person.password } }),
  );
  const first = signedIn.AuthenticationResult!;
  for (const token of [first.IdToken!, first.AccessToken!]) expect(claims(token).exp - claims(token).iat).toBe(LIFETIME);
  expect(await me(first.IdToken!)).not.toBe(401);

  // The token expires: the authorizer refuses it.
  await eventually(async () => (await me(first.IdToken!)) === 401, { timeoutMs: 10_000, what: 'the id token to expire' });

  // Refreshing (as Amplify does) gives a new id token the authorizer accepts.
  const refreshed = (await cognito.send(new GetTokensFromRefreshTokenCommand({ ClientId: twin().clientIds.web, RefreshToken: first.RefreshToken! }))).AuthenticationResult!;
  expect(claims(refreshed.IdToken!).sub).toBe(claims(first.IdToken!).sub);
  expect(await me(refreshed.IdToken!)).not.toBe(401);

  // Sign-out everywhere: the refresh token no longer gives tokens.
  await cognito.send(new GlobalSignOutCommand({ AccessToken: refreshed.AccessToken! }));
  await expect(cognito.send(new GetTokensFromRefreshTokenCommand({ ClientId: twin().clientIds.web, RefreshToken: first.RefreshToken! }))).rejects.toMatchObject({
    name: 'NotAuthorizedException',
  });
  cognito.destroy();
});

it('refuses a token lifetime that is not a whole number of seconds', async () => {
  const { startTwin } = await import('../../../infra/local/twin');
  await expect(startTwin({ fast: true, tokenLifetimeSeconds: 0.5 })).rejects.toThrow('tokenLifetimeSeconds must be a whole number of seconds of at least 1, got 0.5');
});
