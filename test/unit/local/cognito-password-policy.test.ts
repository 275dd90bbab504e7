import { PASSWORD_POLICY, passwordProblems } from '../../../events/account-values';
import { passwordPolicyViolation, refusePolicyBreak } from '../../../infra/local/emulators/cognito-password-policy';

// The template's pool policy, as CloudFormation writes the product's PASSWORD_POLICY.
const POLICY = {
  MinimumLength: PASSWORD_POLICY.minLength,
  RequireLowercase: true,
  RequireUppercase: true,
  RequireNumbers: true,
  RequireSymbols: true,
};

describe('the twin checks passwords against the pool policy as Cognito does', () => {
  it.each([
    ['Sh0rt!a', 'Password not long enough'],
    ['ALLUPPER123!', 'Password must have lowercase characters'],
    ['alllower123!', 'Password must have uppercase characters'],
    ['NoDigitsHere!', 'Password must have numeric characters'],
    ['NoSymbols1234', 'Password must have symbol characters'],
  ])('refuses %s: %s', (password, reason) => {
    expect(passwordPolicyViolation(POLICY, password)).toBe(`Password did not conform with policy: ${reason}`);
  });

  it('accepts a password that meets every rule, as the sign-up page does', () => {
    expect(passwordPolicyViolation(POLICY, 'Str0ng!Passw0rd')).toBeUndefined();
    expect(passwordProblems('Str0ng!Passw0rd')).toEqual([]);
  });

  it('agrees with the sign-up checklist on which passwords are weak', () => {
    for (const p of ['Sh0rt!a', 'ALLUPPER123!', 'alllower123!', 'NoDigitsHere!', 'NoSymbols1234', 'Str0ng Passw0rd']) {
      expect(passwordPolicyViolation(POLICY, p) === undefined).toBe(passwordProblems(p).length === 0);
    }
  });

  it('finds the new password in every call that sets one', () => {
    const weak = 'weak';
    expect(refusePolicyBreak(POLICY, 'SignUp', { Password: weak })?.__type).toBe('InvalidPasswordException');
    expect(refusePolicyBreak(POLICY, 'ConfirmForgotPassword', { Password: weak })).toBeDefined();
    expect(refusePolicyBreak(POLICY, 'ChangePassword', { ProposedPassword: weak })).toBeDefined();
    expect(refusePolicyBreak(POLICY, 'AdminSetUserPassword', { Password: weak })).toBeDefined();
    expect(refusePolicyBreak(POLICY, 'RespondToAuthChallenge', { ChallengeName: 'NEW_PASSWORD_REQUIRED', ChallengeResponses: { NEW_PASSWORD: weak } })).toBeDefined();
    expect(refusePolicyBreak(POLICY, 'RespondToAuthChallenge', { ChallengeName: 'SOFTWARE_TOKEN_MFA', ChallengeResponses: { SOFTWARE_TOKEN_MFA_CODE: '123' } })).toBeUndefined();
    expect(refusePolicyBreak(POLICY, 'InitiateAuth', { AuthParameters: { PASSWORD: weak } })).toBeUndefined();
    expect(refusePolicyBreak(undefined, 'SignUp', { Password: weak })).toBeUndefined();
  });
});
