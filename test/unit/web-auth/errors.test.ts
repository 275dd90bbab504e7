import { AuthError } from 'aws-amplify/auth';
import { SIGN_IN_FAILED_MESSAGE } from '../../../events/account-values';
import { codeErrorMessage, sendCodeErrorMessage, signInErrorMessage, signUpErrorMessage } from '../../../web/src/auth/errors';

/** What Amplify throws for a refusal from Cognito: an AuthError named after Cognito's exception. */
const cognito = (name: string, message = 'from Cognito') => new AuthError({ name, message });

describe('sign-in error messages', () => {
  it('says the same thing for a wrong password and for an email without an account', () => {
    const wrongPassword = signInErrorMessage(cognito('NotAuthorizedException', 'Incorrect username or password.'));
    const unknownEmail = signInErrorMessage(cognito('UserNotFoundException', 'User does not exist.'));
    // cognito-local (the twin) answers a wrong password with InvalidPasswordException.
    const twinWrongPassword = signInErrorMessage(cognito('InvalidPasswordException', 'Invalid password'));
    expect(wrongPassword).toBe(SIGN_IN_FAILED_MESSAGE);
    expect(unknownEmail).toBe(SIGN_IN_FAILED_MESSAGE);
    expect(twinWrongPassword).toBe(SIGN_IN_FAILED_MESSAGE);
    // Cognito's own words (which differ) never reach the page.
    expect(wrongPassword).not.toContain('Incorrect');
    expect(unknownEmail).not.toContain('exist');
  });

  it('gives other failures their own message, never the wrong-credentials one', () => {
    for (const name of ['LimitExceededException', 'TooManyRequestsException', 'NetworkError', 'InternalErrorException']) {
      const message = signInErrorMessage(cognito(name));
      expect(message).not.toBe(SIGN_IN_FAILED_MESSAGE);
      expect(message.length).toBeGreaterThan(10);
    }
    expect(signInErrorMessage(cognito('LimitExceededException'))).toMatch(/Too many attempts/);
    // The user pool's WAF (decision 040) answers a blocked call with ForbiddenException.
    const waf = cognito('ForbiddenException', 'Request not allowed due to WAF block.');
    expect([signInErrorMessage(waf), signUpErrorMessage(waf), sendCodeErrorMessage(waf)]).toEqual(Array(3).fill('Too many attempts. Please wait a few minutes and try again.'));
    expect(signInErrorMessage(new Error('boom'))).toMatch(/try again/);
  });
});

describe('sign-up and code error messages', () => {
  it("shows Cognito's reason for a weak password", () => {
    const message = signUpErrorMessage(cognito('InvalidPasswordException', 'Password did not conform with policy: Password must have symbol characters'));
    expect(message).toBe('Choose a stronger password: Password must have symbol characters.');
    expect(codeErrorMessage(cognito('InvalidPasswordException', 'Password did not conform with policy: Password not long enough'))).toBe(
      'Choose a stronger password: Password not long enough.',
    );
  });

  it('names what is wrong with a code', () => {
    expect(codeErrorMessage(cognito('CodeMismatchException'))).toMatch(/code is not right/);
    expect(codeErrorMessage(cognito('ExpiredCodeException'))).toMatch(/expired/);
  });

  it('does not reveal, when a code is asked for, whether the email has an account', () => {
    expect(sendCodeErrorMessage(cognito('UserNotFoundException'))).toBe('');
    expect(sendCodeErrorMessage(cognito('LimitExceededException'))).toMatch(/Too many attempts/);
  });
});
