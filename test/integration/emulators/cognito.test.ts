import { createServer, type Server } from 'node:http';
import {
  CognitoIdentityProviderClient,
  ConfirmSignUpCommand,
  GetTokensFromRefreshTokenCommand,
  InitiateAuthCommand,
  RespondToAuthChallengeCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { startCognito, COGNITO_FIXED_CODE, type CognitoEmulator } from '../../../infra/local/emulators/cognito';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { createUserPool, enrolTotp, seedUser, type UserPoolSpec } from '../../../infra/local/provision';
import { totpCode } from '../../../infra/local/totp';

jest.setTimeout(30_000);

// Properties as CDK synthesizes them for infra/lib/constructs/auth.ts (intrinsics resolved).
const spec: UserPoolSpec = {
  poolName: 'marketplace-local',
  properties: {
    UserPoolName: 'marketplace-local',
    UsernameAttributes: ['email'],
    AutoVerifiedAttributes: ['email'],
    UsernameConfiguration: { CaseSensitive: false },
    Policies: {
      PasswordPolicy: { MinimumLength: 10, RequireLowercase: true, RequireUppercase: true, RequireNumbers: true, RequireSymbols: true, TemporaryPasswordValidityDays: 3 },
    },
    Schema: [
      { Name: 'email', Mutable: true, Required: true },
      { Name: 'name', Mutable: true, Required: false },
      { Name: 'role', AttributeDataType: 'String', Mutable: false, StringAttributeConstraints: { MinLength: '1', MaxLength: '16' } },
    ],
    MfaConfiguration: 'OPTIONAL',
    EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
    UserPoolTier: 'ESSENTIALS',
    AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'verified_email', Priority: 1 }] },
    AdminCreateUserConfig: { AllowAdminCreateUserOnly: false },
    LambdaConfig: { PreSignUp: 'arn:aws:lambda:us-east-1:000000000000:function:pre-sign-up' },
  },
  groups: [
    { name: 'admin', properties: { GroupName: 'admin', Precedence: 0, Description: 'Reviewers and operators' } },
    { name: 'client', properties: { GroupName: 'client', Precedence: 1 } },
    { name: 'talent', properties: { GroupName: 'talent', Precedence: 2 } },
  ],
  clients: [
    {
      logicalId: 'AuthWebClient1234ABCD',
      properties: {
        ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_USER_SRP_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
        GenerateSecret: false,
        PreventUserExistenceErrors: 'ENABLED',
        EnableTokenRevocation: true,
        AccessTokenValidity: 60,
        IdTokenValidity: 60,
        RefreshTokenValidity: 43200,
        TokenValidityUnits: { AccessToken: 'minutes', IdToken: 'minutes', RefreshToken: 'minutes' },
        SupportedIdentityProviders: ['COGNITO'],
        AllowedOAuthFlows: ['implicit', 'code'],
        CallbackURLs: ['https://example.com'],
      },
    },
    // SRP only, as a client might be configured in the cloud: the twin must still sign in with a password.
    { logicalId: 'AuthAdminClient5678EFGH', properties: { ExplicitAuthFlows: ['ALLOW_USER_SRP_AUTH'], GenerateSecret: false } },
  ],
};

function claims(jwt: string) {
  return JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString('utf8'));
}

describe('Cognito (cognito-local)', () => {
  let cognito: CognitoEmulator;
  let client: CognitoIdentityProviderClient;
  let userPoolId: string;
  let clientIds: Record<string, string>;

  beforeAll(async () => {
    cognito = await startCognito();
    client = new CognitoIdentityProviderClient({ endpoint: cognito.endpoint, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } });
    ({ userPoolId, clientIds } = await createUserPool(cognito.endpoint, spec));
  });
  afterAll(async () => {
    client?.destroy();
    await cognito?.stop();
  });

  const signIn = (clientId: string, username: string, password: string) =>
    client.send(new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: clientId, AuthParameters: { USERNAME: username, PASSWORD: password } }));

  test('createUserPool is idempotent', async () => {
    expect(Object.keys(clientIds)).toEqual(['AuthWebClient1234ABCD', 'AuthAdminClient5678EFGH']);
    expect(await createUserPool(cognito.endpoint, spec)).toEqual({ userPoolId, clientIds });
  });

  test('a seeded user signs in with USER_PASSWORD_AUTH and gets tokens carrying cognito:groups', async () => {
    const seeded = await seedUser(cognito.endpoint, userPoolId, {
      email: 'admin@marketplace.example',
      password: 'Local-Admin-Passw0rd!',
      groups: ['admin'],
      name: 'Ada Admin',
      attributes: { 'custom:role': 'admin' },
    });
    // Seeding again is harmless.
    expect(
      await seedUser(cognito.endpoint, userPoolId, { email: 'admin@marketplace.example', password: 'Local-Admin-Passw0rd!', groups: ['admin'] }),
    ).toEqual(seeded);

    for (const clientId of Object.values(clientIds)) {
      const { AuthenticationResult: tokens } = await signIn(clientId, 'admin@marketplace.example', 'Local-Admin-Passw0rd!');
      expect(tokens?.RefreshToken).toBeTruthy();
      const id = claims(tokens!.IdToken!);
      expect(id).toMatchObject({
        token_use: 'id',
        aud: clientId,
        email: 'admin@marketplace.example',
        email_verified: true,
        'custom:role': 'admin',
        'cognito:groups': ['admin'],
        sub: seeded.sub,
        iss: cognito.issuer(userPoolId),
      });
      expect(claims(tokens!.AccessToken!)).toMatchObject({ token_use: 'access', client_id: clientId, 'cognito:groups': ['admin'], iss: cognito.issuer(userPoolId) });
    }

    const refreshed = await client.send(
      new InitiateAuthCommand({
        AuthFlow: 'REFRESH_TOKEN_AUTH',
        ClientId: clientIds.AuthWebClient1234ABCD,
        AuthParameters: { REFRESH_TOKEN: (await signIn(clientIds.AuthWebClient1234ABCD, 'admin@marketplace.example', 'Local-Admin-Passw0rd!')).AuthenticationResult!.RefreshToken! },
      }),
    );
    expect(claims(refreshed.AuthenticationResult!.IdToken!)['cognito:groups']).toEqual(['admin']);

    // Deviation worth knowing: Cognito answers a wrong password with NotAuthorizedException,
    // cognito-local 5.3.0 with InvalidPasswordException. Client code should handle both.
    await expect(signIn(clientIds.AuthWebClient1234ABCD, 'admin@marketplace.example', 'wrong-password')).rejects.toMatchObject({
      name: 'InvalidPasswordException',
    });
  });

  test('a user with TOTP on must answer the code, and the session it gets can be refreshed', async () => {
    const user = { email: 'two.factor@marketplace.example', password: 'Local-Admin-Passw0rd!' };
    await seedUser(cognito.endpoint, userPoolId, { ...user, groups: ['admin'] });
    const clientId = clientIds.AuthWebClient1234ABCD;
    const secret = await enrolTotp(cognito.endpoint, clientId, user);
    const challenged = await signIn(clientId, user.email, user.password);
    expect(challenged).toMatchObject({ ChallengeName: 'SOFTWARE_TOKEN_MFA' });
    expect(challenged.AuthenticationResult).toBeUndefined();
    const respond = (code: string) =>
      client.send(
        new RespondToAuthChallengeCommand({
          ClientId: clientId,
          ChallengeName: 'SOFTWARE_TOKEN_MFA',
          Session: challenged.Session,
          ChallengeResponses: { USERNAME: user.email, SOFTWARE_TOKEN_MFA_CODE: code },
        }),
      );
    const wrong = String((Number(totpCode(secret)) + 500_000) % 1_000_000).padStart(6, '0');
    await expect(respond(wrong)).rejects.toMatchObject({ name: 'CodeMismatchException' });
    const { AuthenticationResult: tokens } = await respond(totpCode(secret));
    expect(claims(tokens!.IdToken!).email).toBe(user.email);
    // cognito-local forgets refresh tokens issued after a challenge; the front makes this one last.
    const refreshed = await client.send(new GetTokensFromRefreshTokenCommand({ ClientId: clientId, RefreshToken: tokens!.RefreshToken! }));
    expect(claims(refreshed.AuthenticationResult!.IdToken!).email).toBe(user.email);
  });

  test('the JWKS that verifies the tokens is served at jwksUrl', async () => {
    const res = await fetch(cognito.jwksUrl(userPoolId));
    expect(res.status).toBe(200);
    const { keys } = (await res.json()) as { keys: Array<{ kid: string; kty: string }> };
    const { AuthenticationResult } = await signIn(clientIds.AuthWebClient1234ABCD, 'admin@marketplace.example', 'Local-Admin-Passw0rd!');
    const header = JSON.parse(Buffer.from(AuthenticationResult!.IdToken!.split('.')[0], 'base64url').toString('utf8'));
    expect(keys.map((k) => k.kid)).toContain(header.kid);
    expect(cognito.issuer(userPoolId)).toBe(`${cognito.endpoint}/${userPoolId}`);
  });

  test('sign-up confirmation codes are fixed', async () => {
    await client.send(
      new SignUpCommand({
        ClientId: clientIds.AuthWebClient1234ABCD,
        Username: 'new.talent@example.com',
        Password: 'Talent-Passw0rd!',
        UserAttributes: [{ Name: 'email', Value: 'new.talent@example.com' }],
      }),
    );
    await client.send(new ConfirmSignUpCommand({ ClientId: clientIds.AuthWebClient1234ABCD, Username: 'new.talent@example.com', ConfirmationCode: COGNITO_FIXED_CODE }));
    const { AuthenticationResult } = await signIn(clientIds.AuthWebClient1234ABCD, 'new.talent@example.com', 'Talent-Passw0rd!');
    expect(claims(AuthenticationResult!.IdToken!).email).toBe('new.talent@example.com');
  });
});

describe('Cognito triggers through a Lambda endpoint', () => {
  // Stands in for the twin's Lambda Invoke API: records each call and answers like the
  // pre-sign-up trigger does (refuses the admin role).
  let lambda: Server;
  let cognito: CognitoEmulator;
  let client: CognitoIdentityProviderClient;
  const invocations: Array<{ path: string; event: { triggerSource: string; request: { userAttributes: Record<string, string> } } }> = [];

  beforeAll(async () => {
    lambda = createServer(async (req, res) => {
      let body = '';
      for await (const chunk of req) body += chunk;
      const event = JSON.parse(body);
      invocations.push({ path: req.url ?? '', event });
      if (event.request?.userAttributes?.['custom:role'] === 'admin') {
        res.writeHead(200, { 'Content-Type': 'application/json', 'X-Amz-Function-Error': 'Unhandled' });
        res.end(JSON.stringify({ errorType: 'Error', errorMessage: 'role must be client or talent' }));
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(event));
    });
    await new Promise<void>((resolve) => lambda.listen(0, '127.0.0.1', resolve));
    const address = lambda.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    cognito = await startCognito({
      lambdaEndpoint: `http://127.0.0.1:${port}`,
      triggers: { PreSignUp: 'marketplace-local-PreSignUp', PostConfirmation: 'marketplace-local-PostConfirmation' },
    });
    client = new CognitoIdentityProviderClient({ endpoint: cognito.endpoint, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } });
  });
  afterAll(async () => {
    client?.destroy();
    await cognito?.stop();
    await new Promise((resolve) => lambda?.close(resolve));
  });

  test('PreSignUp and PostConfirmation invoke the configured functions; a trigger error refuses the sign-up', async () => {
    const { clientIds } = await createUserPool(cognito.endpoint, { ...spec, clients: [spec.clients[0]] });
    const clientId = clientIds.AuthWebClient1234ABCD;
    const signUp = (email: string, role: string) =>
      client.send(
        new SignUpCommand({
          ClientId: clientId,
          Username: email,
          Password: 'Talent-Passw0rd!',
          UserAttributes: [
            { Name: 'email', Value: email },
            { Name: 'custom:role', Value: role },
          ],
        }),
      );

    await signUp('talent@example.com', 'talent');
    await client.send(new ConfirmSignUpCommand({ ClientId: clientId, Username: 'talent@example.com', ConfirmationCode: COGNITO_FIXED_CODE }));
    expect(invocations.map((i) => [i.path, i.event.triggerSource])).toEqual([
      ['/2015-03-31/functions/marketplace-local-PreSignUp/invocations', 'PreSignUp_SignUp'],
      ['/2015-03-31/functions/marketplace-local-PostConfirmation/invocations', 'PostConfirmation_ConfirmSignUp'],
    ]);
    expect(invocations[1].event.request.userAttributes).toMatchObject({ email: 'talent@example.com', 'custom:role': 'talent' });

    await expect(signUp('mallory@example.com', 'admin')).rejects.toMatchObject({
      name: 'UserLambdaValidationException',
      message: expect.stringContaining('role must be client or talent'),
    });
  });
});
