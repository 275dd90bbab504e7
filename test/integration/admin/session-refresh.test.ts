import {
  CognitoIdentityProviderClient,
  GetTokensFromRefreshTokenCommand,
  InitiateAuthCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { startCognito, type CognitoEmulator } from '../../../infra/local/emulators/cognito';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { createUserPool, seedUser } from '../../../infra/local/provision';
import { eventually } from '../../support/eventually';

jest.setTimeout(60_000);

// "Sessions that refresh": Amplify 6 refreshes with GetTokensFromRefreshToken, which the twin's
// Cognito front answers as Cognito does.
let cognito: CognitoEmulator;
let client: CognitoIdentityProviderClient;
let clientId: string;
const user = { email: 'reviewer@humanly.example', password: 'Str0ng!Passw0rd' };
const claims = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8'));

beforeAll(async () => {
  cognito = await startCognito();
  const pool = await createUserPool(cognito.endpoint, {
    poolName: 'refresh-test',
    properties: { UsernameAttributes: ['email'] },
    groups: [{ name: 'admin' }],
    clients: [{ logicalId: 'AuthAdminClient', properties: { ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'] } }],
  });
  clientId = pool.clientIds.AuthAdminClient;
  await seedUser(cognito.endpoint, pool.userPoolId, { ...user, groups: ['admin'] });
  client = new CognitoIdentityProviderClient({ endpoint: cognito.endpoint, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } });
});
afterAll(async () => {
  client?.destroy();
  await cognito?.stop();
});

async function signIn() {
  const out = await client.send(
    new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: clientId, AuthParameters: { USERNAME: user.email, PASSWORD: user.password } }),
  );
  return out.AuthenticationResult!;
}

describe('the twin Cognito front', () => {
  it('answers GetTokensFromRefreshToken with new id and access tokens for the same user', async () => {
    const first = await signIn();
    // Tokens carry second-resolution timestamps: wait for the next second, so the new ones differ.
    const issuedAt = Number(claims(first.IdToken!).iat);
    await eventually(() => Math.floor(Date.now() / 1000) > issuedAt, { what: 'the next second' });
    const out = await client.send(new GetTokensFromRefreshTokenCommand({ ClientId: clientId, RefreshToken: first.RefreshToken! }));
    const result = out.AuthenticationResult!;
    expect(result.IdToken).toBeDefined();
    expect(result.AccessToken).toBeDefined();
    expect(result.IdToken).not.toBe(first.IdToken);
    const before = claims(first.IdToken!);
    const after = claims(result.IdToken!);
    expect(after.sub).toBe(before.sub);
    expect(after['cognito:groups']).toEqual(['admin']);
    expect(after.iss).toBe(cognito.issuer(before.iss.split('/').pop()));
    expect(after.iat).toBeGreaterThan(before.iat);
  });

  it('refuses a refresh token it never issued, as Cognito does', async () => {
    await expect(client.send(new GetTokensFromRefreshTokenCommand({ ClientId: clientId, RefreshToken: 'not-a-refresh-token' }))).rejects.toMatchObject({
      name: 'NotAuthorizedException',
    });
  });

  it('passes every other call through to cognito-local', async () => {
    const tokens = await signIn();
    expect(claims(tokens.IdToken!).email).toBe(user.email);
    const jwks = await fetch(cognito.jwksUrl(claims(tokens.IdToken!).iss.split('/').pop()));
    expect(jwks.status).toBe(200);
    expect((await jwks.json()).keys.length).toBeGreaterThan(0);
  });
});
