import { createServer, type Server } from 'node:http';
import {
  AdminCreateUserCommand,
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminUserGlobalSignOutCommand,
  CognitoIdentityProviderClient,
  ConfirmSignUpCommand,
  GetTokensFromRefreshTokenCommand,
  GlobalSignOutCommand,
  InitiateAuthCommand,
  ResendConfirmationCodeCommand,
  RespondToAuthChallengeCommand,
  SignUpCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import { startCognito, type CognitoEmulator } from '../../../infra/local/emulators/cognito';
import { startSes, type SesEmulator } from '../../../infra/local/emulators/ses';
import { cognitoMails, latestCognitoCode } from '../../support/cognito-mail';
import { TWIN_CREDENTIALS, TWIN_REGION } from '../../../infra/local/emulators/ports';
import { createUserPool, enrolTotp, seedUser, type UserPoolSpec } from '../../../infra/local/provision';
import { totpCode } from '../../../infra/local/totp';

jest.setTimeout(30_000);

// Properties as CDK synthesizes them for infra/lib/platform/auth.ts (intrinsics resolved).
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
  let ses: SesEmulator;
  let client: CognitoIdentityProviderClient;
  let userPoolId: string;
  let clientIds: Record<string, string>;
  const mail = { emails: () => ses.listMessages() };

  beforeAll(async () => {
    ses = await startSes();
    cognito = await startCognito({ sesEndpoint: ses.endpoint });
    client = new CognitoIdentityProviderClient({ endpoint: cognito.endpoint, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } });
    ({ userPoolId, clientIds } = await createUserPool(cognito.endpoint, spec));
  });
  afterAll(async () => {
    client?.destroy();
    await cognito?.stop();
    await ses?.stop();
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

  test("an invited user's temporary password is checked, and a challenge is answered only with its own session (decision 040)", async () => {
    const clientId = clientIds.AuthWebClient1234ABCD;
    const email = 'invited.talent@marketplace.example';
    const temporary = 'Temp-Passw0rd!1';
    await client.send(new AdminCreateUserCommand({ UserPoolId: userPoolId, Username: email, TemporaryPassword: temporary, MessageAction: 'SUPPRESS' }));
    // Anyone who knows the address is refused the new-password challenge, as Cognito refuses them.
    await expect(signIn(clientId, email, 'Guessed-Passw0rd!')).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'Incorrect username or password.' });
    const respond = (session: string | undefined, password: string) =>
      client.send(
        new RespondToAuthChallengeCommand({
          ClientId: clientId,
          ChallengeName: 'NEW_PASSWORD_REQUIRED',
          Session: session,
          ChallengeResponses: { USERNAME: email, NEW_PASSWORD: password },
        }),
      );
    // A made-up session sets no password.
    await expect(respond('00000000-0000-4000-8000-000000000000', 'Hijack-Passw0rd!')).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    const challenged = await signIn(clientId, email, temporary);
    expect(challenged.ChallengeName).toBe('NEW_PASSWORD_REQUIRED');
    const { AuthenticationResult: tokens } = await respond(challenged.Session, 'Own-Passw0rd!22');
    expect(claims(tokens!.IdToken!).email).toBe(email);
    // The session is used up.
    await expect(respond(challenged.Session, 'Hijack-Passw0rd!')).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    expect((await signIn(clientId, email, 'Own-Passw0rd!22')).AuthenticationResult?.IdToken).toBeTruthy();
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

  const signUp = (email: string) =>
    client.send(
      new SignUpCommand({
        ClientId: clientIds.AuthWebClient1234ABCD,
        Username: email,
        Password: 'Talent-Passw0rd!',
        UserAttributes: [{ Name: 'email', Value: email }],
      }),
    );
  const confirm = (email: string, code: string) =>
    client.send(new ConfirmSignUpCommand({ ClientId: clientIds.AuthWebClient1234ABCD, Username: email, ConfirmationCode: code }));

  test('a sign-up code is random and mailed through SES; ResendConfirmationCode mails a new one and the old one stops working', async () => {
    await signUp('new.talent@example.com');
    const first = await latestCognitoCode(mail, 'new.talent@example.com');
    // Without a CustomMessage trigger: the pool's default text, from Cognito's default sender.
    expect((await cognitoMails(mail, 'new.talent@example.com'))[0]).toMatchObject({ from: 'no-reply@verificationemail.com', subject: 'Your verification code' });

    const resent = await client.send(new ResendConfirmationCodeCommand({ ClientId: clientIds.AuthWebClient1234ABCD, Username: 'new.talent@example.com' }));
    expect(resent.CodeDeliveryDetails).toEqual({ AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: 'n***@e***' });
    const second = await latestCognitoCode(mail, 'new.talent@example.com', { previous: first });
    await expect(confirm('new.talent@example.com', first)).rejects.toMatchObject({ name: 'CodeMismatchException' });
    await confirm('new.talent@example.com', second);
    const { AuthenticationResult } = await signIn(clientIds.AuthWebClient1234ABCD, 'new.talent@example.com', 'Talent-Passw0rd!');
    expect(claims(AuthenticationResult!.IdToken!).email).toBe('new.talent@example.com');

    // Two sign-ups never share a code source: another person's code is another draw.
    await signUp('other.talent@example.com');
    expect(await latestCognitoCode(mail, 'other.talent@example.com')).toMatch(/^\d{6}$/);
  });

  test('ResendConfirmationCode reveals neither unknown nor confirmed accounts (PreventUserExistenceErrors), and mails nothing to them', async () => {
    await signUp('confirmed.person@example.com');
    await confirm('confirmed.person@example.com', await latestCognitoCode(mail, 'confirmed.person@example.com'));
    const before = (await ses.listMessages()).length;
    for (const username of ['confirmed.person@example.com', 'nobody.here@example.com']) {
      const answer = await client.send(new ResendConfirmationCodeCommand({ ClientId: clientIds.AuthWebClient1234ABCD, Username: username }));
      expect(answer.CodeDeliveryDetails).toEqual({ AttributeName: 'email', DeliveryMedium: 'EMAIL', Destination: `${username[0]}***@e***` });
    }
    expect((await ses.listMessages()).length).toBe(before);
  });

  test('GlobalSignOut (access token) and AdminUserGlobalSignOut end every refresh token of the user', async () => {
    const person = { email: 'signs.out@example.com', password: 'Local-Admin-Passw0rd!' };
    await seedUser(cognito.endpoint, userPoolId, { ...person, groups: ['client'] });
    const clientId = clientIds.AuthWebClient1234ABCD;
    const refresh = (token: string) => client.send(new GetTokensFromRefreshTokenCommand({ ClientId: clientId, RefreshToken: token }));
    const phone = (await signIn(clientId, person.email, person.password)).AuthenticationResult!;
    const laptop = (await signIn(clientId, person.email, person.password)).AuthenticationResult!;
    await refresh(laptop.RefreshToken!);

    await expect(client.send(new GlobalSignOutCommand({ AccessToken: `${phone.AccessToken!.slice(0, -4)}AAAA` }))).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    await expect(client.send(new GlobalSignOutCommand({ AccessToken: phone.IdToken! }))).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    await client.send(new GlobalSignOutCommand({ AccessToken: phone.AccessToken! }));
    for (const token of [phone.RefreshToken!, laptop.RefreshToken!]) await expect(refresh(token)).rejects.toMatchObject({ name: 'NotAuthorizedException' });

    // Signing in again works; the console's sign-out of the account ends that session too.
    const again = (await signIn(clientId, person.email, person.password)).AuthenticationResult!;
    await refresh(again.RefreshToken!);
    await client.send(new AdminUserGlobalSignOutCommand({ UserPoolId: userPoolId, Username: person.email }));
    await expect(refresh(again.RefreshToken!)).rejects.toMatchObject({ name: 'NotAuthorizedException' });
    await expect(client.send(new AdminUserGlobalSignOutCommand({ UserPoolId: userPoolId, Username: 'nobody.here@example.com' }))).rejects.toMatchObject({
      name: 'UserNotFoundException',
    });
  });

  test('a disabled user can neither sign in nor refresh; enabled again, they can', async () => {
    const person = { email: 'disabled.person@example.com', password: 'Local-Admin-Passw0rd!' };
    await seedUser(cognito.endpoint, userPoolId, { ...person, groups: ['client'] });
    const clientId = clientIds.AuthWebClient1234ABCD;
    const session = (await signIn(clientId, person.email, person.password)).AuthenticationResult!;
    await client.send(new AdminDisableUserCommand({ UserPoolId: userPoolId, Username: person.email }));
    await expect(signIn(clientId, person.email, person.password)).rejects.toMatchObject({ name: 'NotAuthorizedException', message: 'User is disabled.' });
    await expect(client.send(new GetTokensFromRefreshTokenCommand({ ClientId: clientId, RefreshToken: session.RefreshToken! }))).rejects.toMatchObject({
      name: 'NotAuthorizedException',
      message: 'User is disabled.',
    });
    // A wrong password says nothing about the account's state.
    await expect(signIn(clientId, person.email, 'Wrong-Passw0rd!')).rejects.not.toMatchObject({ message: 'User is disabled.' });
    await client.send(new AdminEnableUserCommand({ UserPoolId: userPoolId, Username: person.email }));
    expect((await signIn(clientId, person.email, person.password)).AuthenticationResult?.AccessToken).toBeTruthy();
  });
});

describe('Cognito triggers through a Lambda endpoint', () => {
  // Stands in for the twin's Lambda Invoke API: records each call and answers like the
  // pre-sign-up trigger does (refuses the admin role).
  let lambda: Server;
  let cognito: CognitoEmulator;
  let ses: SesEmulator;
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
      if (event.triggerSource === 'CustomMessage_SignUp') {
        event.response = { emailSubject: 'Confirm your account', emailMessage: '<p>Your code: <b>{####}</b></p>' };
      }
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(event));
    });
    await new Promise<void>((resolve) => lambda.listen(0, '127.0.0.1', resolve));
    const address = lambda.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    ses = await startSes();
    cognito = await startCognito({
      sesEndpoint: ses.endpoint,
      lambdaEndpoint: `http://127.0.0.1:${port}`,
      triggers: { PreSignUp: 'marketplace-local-PreSignUp', PostConfirmation: 'marketplace-local-PostConfirmation', CustomMessage: 'marketplace-local-CustomMessage' },
    });
    client = new CognitoIdentityProviderClient({ endpoint: cognito.endpoint, region: TWIN_REGION, credentials: { ...TWIN_CREDENTIALS } });
  });
  afterAll(async () => {
    client?.destroy();
    await cognito?.stop();
    await ses?.stop();
    await new Promise((resolve) => lambda?.close(resolve));
  });

  test('PreSignUp, CustomMessage and PostConfirmation invoke the configured functions; the email is the trigger\'s, from the pool\'s sender; a trigger error refuses the sign-up', async () => {
    const { clientIds } = await createUserPool(cognito.endpoint, {
      ...spec,
      properties: { ...spec.properties, EmailConfiguration: { EmailSendingAccount: 'DEVELOPER', From: 'Humanly <hello@humanly.example>' } },
      clients: [spec.clients[0]],
    });
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
    const code = await latestCognitoCode({ emails: () => ses.listMessages() }, 'talent@example.com');
    const [email] = await cognitoMails({ emails: () => ses.listMessages() }, 'talent@example.com');
    expect(email).toMatchObject({ from: 'Humanly <hello@humanly.example>', subject: 'Confirm your account', html: `<p>Your code: <b>${code}</b></p>` });
    await client.send(new ConfirmSignUpCommand({ ClientId: clientId, Username: 'talent@example.com', ConfirmationCode: code }));
    expect(invocations.map((i) => [i.path, i.event.triggerSource])).toEqual([
      ['/2015-03-31/functions/marketplace-local-PreSignUp/invocations', 'PreSignUp_SignUp'],
      ['/2015-03-31/functions/marketplace-local-CustomMessage/invocations', 'CustomMessage_SignUp'],
      ['/2015-03-31/functions/marketplace-local-PostConfirmation/invocations', 'PostConfirmation_ConfirmSignUp'],
    ]);
    expect(invocations[2].event.request.userAttributes).toMatchObject({ email: 'talent@example.com', 'custom:role': 'talent' });

    await expect(signUp('mallory@example.com', 'admin')).rejects.toMatchObject({
      name: 'UserLambdaValidationException',
      message: expect.stringContaining('role must be client or talent'),
    });
  });
});
