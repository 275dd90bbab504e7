import { ConfirmForgotPasswordCommand, ConfirmSignUpCommand, ForgotPasswordCommand, InitiateAuthCommand, ResendConfirmationCodeCommand, SignUpCommand } from '@aws-sdk/client-cognito-identity-provider';
import { cognitoMails, latestCognitoCode, visibleText } from '../../support/cognito-mail';
import { cognitoClient, useTwin } from '../../support/twin';

// Cognito's emails on the twin (decision 020): our CustomMessage trigger's text, sent through the
// SES emulator from the stage's sender address, with random codes that really confirm.
const twin = useTwin();
const PASSWORD = 'Str0ng!Passw0rd';
const unique = (name: string) => `${name}.${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}@people.example`;

const signUp = (email: string) =>
  cognitoClient(twin()).send(
    new SignUpCommand({
      ClientId: twin().clientIds.web,
      Username: email,
      Password: PASSWORD,
      UserAttributes: [
        { Name: 'email', Value: email },
        { Name: 'name', Value: 'Casey Client' },
        { Name: 'custom:role', Value: 'client' },
      ],
    }),
  );
const confirm = (email: string, code: string) =>
  cognitoClient(twin()).send(new ConfirmSignUpCommand({ ClientId: twin().clientIds.web, Username: email, ConfirmationCode: code }));
const signIn = (email: string, password: string) =>
  cognitoClient(twin()).send(new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: twin().clientIds.web, AuthParameters: { USERNAME: email, PASSWORD: password } }));

describe("Cognito's emails on the twin", () => {
  it('a sign-up mails our branded email with a six-digit code, and that code confirms the account', async () => {
    const email = unique('new.client');
    await signUp(email);
    const code = await latestCognitoCode(twin(), email);
    expect(code).toMatch(/^\d{6}$/);
    const [message] = await cognitoMails(twin(), email);
    expect(message).toMatchObject({ from: 'Humanly <hello@humanly.example>', to: [email], subject: 'Your Humanly confirmation code' });
    expect(message.html).toContain(code);
    expect(message.html).not.toContain('{####}');
    expect(visibleText(message)).toMatch(/Ethical AI Starts with You/);

    await expect(signIn(email, PASSWORD)).rejects.toMatchObject({ name: 'UserNotConfirmedException' });
    await confirm(email, code);
    const idToken = (await signIn(email, PASSWORD)).AuthenticationResult?.IdToken;
    // The code proved the address: Cognito marks it verified, and talent access relies on it.
    const claims = JSON.parse(Buffer.from(idToken!.split('.')[1], 'base64url').toString('utf8'));
    expect(claims).toMatchObject({ email, email_verified: true });
  });

  it('"Resend code" mails a new code; the old one no longer works and the new one does', async () => {
    const email = unique('resends');
    await signUp(email);
    const first = await latestCognitoCode(twin(), email);
    await cognitoClient(twin()).send(new ResendConfirmationCodeCommand({ ClientId: twin().clientIds.web, Username: email }));
    const second = await latestCognitoCode(twin(), email, { previous: first });
    const mails = await cognitoMails(twin(), email);
    expect(mails.map((m) => m.subject)).toEqual(['Your Humanly confirmation code', 'Your new Humanly confirmation code']);
    await expect(confirm(email, first)).rejects.toMatchObject({ name: 'CodeMismatchException' });
    await confirm(email, second);
    expect((await signIn(email, PASSWORD)).AuthenticationResult?.IdToken).toBeTruthy();
  });

  it('forgot password mails a code; with it the person sets a new password and signs in with it', async () => {
    const email = unique('forgets');
    await signUp(email);
    await confirm(email, await latestCognitoCode(twin(), email));
    const signUpCode = await latestCognitoCode(twin(), email);

    await cognitoClient(twin()).send(new ForgotPasswordCommand({ ClientId: twin().clientIds.web, Username: email }));
    const code = await latestCognitoCode(twin(), email, { previous: signUpCode });
    expect((await cognitoMails(twin(), email)).at(-1)!.subject).toBe('Reset your Humanly password');
    const newPassword = 'An0ther!Passw0rd';
    await cognitoClient(twin()).send(new ConfirmForgotPasswordCommand({ ClientId: twin().clientIds.web, Username: email, ConfirmationCode: code, Password: newPassword }));
    expect((await signIn(email, newPassword)).AuthenticationResult?.IdToken).toBeTruthy();
    // The old password is a wrong password now: Cognito's NotAuthorizedException, cognito-local's InvalidPasswordException (web/src/auth/errors.ts).
    await expect(signIn(email, PASSWORD)).rejects.toMatchObject({ name: expect.stringMatching(/^(NotAuthorizedException|InvalidPasswordException)$/) });
  });
});
