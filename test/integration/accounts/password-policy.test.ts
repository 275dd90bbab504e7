import { ForgotPasswordCommand, ConfirmForgotPasswordCommand, ConfirmSignUpCommand, SignUpCommand } from '@aws-sdk/client-cognito-identity-provider';
import { PASSWORD_POLICY } from '../../../events/account-values';
import { latestCognitoCode } from '../../support/cognito-mail';
import { cognitoClient, useTwin } from '../../support/twin';

// The password policy is a server rule: the user pool (built from PASSWORD_POLICY) refuses a weak
// password whatever the browser checked. The twin's Cognito refuses it the way Cognito does.
const twin = useTwin();
const unique = (name: string) => `${name}.${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}@people.example`;

const signUp = (email: string, password: string) =>
  cognitoClient(twin()).send(
    new SignUpCommand({
      ClientId: twin().clientIds.web,
      Username: email,
      Password: password,
      UserAttributes: [
        { Name: 'email', Value: email },
        { Name: 'name', Value: 'Pat Policy' },
        { Name: 'custom:role', Value: 'client' },
      ],
    }),
  );

describe('the password policy on the server', () => {
  it.each([
    ['x'.repeat(PASSWORD_POLICY.minLength - 4) + 'A1!', 'Password not long enough'],
    ['no-upper-case-1!', 'Password must have uppercase characters'],
    ['No-Digits-Here!', 'Password must have numeric characters'],
    ['NoSymbolsHere12', 'Password must have symbol characters'],
  ])('refuses a sign-up with %s: %s, and creates no account', async (password, reason) => {
    const email = unique('weak');
    await expect(signUp(email, password)).rejects.toMatchObject({ name: 'InvalidPasswordException', message: `Password did not conform with policy: ${reason}` });
    // Nothing was stored: the same address can sign up with a good password.
    await expect(signUp(email, 'Str0ng!Passw0rd')).resolves.toMatchObject({ UserConfirmed: false });
  });

  it('refuses a weak new password when resetting one, and the reset code still works afterwards', async () => {
    const email = unique('resets');
    await signUp(email, 'Str0ng!Passw0rd');
    await cognitoClient(twin()).send(new ConfirmSignUpCommand({ ClientId: twin().clientIds.web, Username: email, ConfirmationCode: await latestCognitoCode(twin(), email) }));
    const signUpCode = await latestCognitoCode(twin(), email);
    await cognitoClient(twin()).send(new ForgotPasswordCommand({ ClientId: twin().clientIds.web, Username: email }));
    const code = await latestCognitoCode(twin(), email, { previous: signUpCode });
    const reset = (password: string) =>
      cognitoClient(twin()).send(new ConfirmForgotPasswordCommand({ ClientId: twin().clientIds.web, Username: email, ConfirmationCode: code, Password: password }));
    await expect(reset('weakpassword')).rejects.toMatchObject({ name: 'InvalidPasswordException' });
    await expect(reset('N3w!Passw0rd-ok')).resolves.toBeDefined();
  });
});
