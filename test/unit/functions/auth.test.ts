import type { PreSignUpTriggerEvent, PreTokenGenerationTriggerEvent } from 'aws-lambda';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { MFA_REQUIRED_MESSAGE, parseGroups, requireGroup } from '../../../functions/shared/auth';
import type { HttpEvent } from '../../../functions/shared/http';
import { handler as preSignUp } from '../../../functions/accounts/triggers/pre-sign-up/handler';
import { handler as preTokenGeneration } from '../../../functions/accounts/triggers/pre-token-generation/handler';

const withClaims = (claims?: Record<string, unknown>) =>
  ({ requestContext: { authorizer: claims ? { jwt: { claims } } : undefined } }) as unknown as HttpEvent;

describe('groups from API Gateway claims', () => {
  it('reads the "[a b]" string form and arrays', () => {
    expect(parseGroups('[admin talent]')).toEqual(['admin', 'talent']);
    expect(parseGroups(['client'])).toEqual(['client']);
    expect(parseGroups(undefined)).toEqual([]);
  });

  it('lets admins through and refuses others with 403, anonymous with 401', () => {
    expect(requireGroup(withClaims({ sub: 'u1', 'cognito:groups': '[admin]', mfa: 'totp' }), 'admin').sub).toBe('u1');
    expect(() => requireGroup(withClaims({ sub: 'u2', 'cognito:groups': '[client]' }), 'admin')).toThrow(
      expect.objectContaining({ status: 403 }),
    );
    expect(() => requireGroup(withClaims(), 'admin')).toThrow(expect.objectContaining({ status: 401 }));
  });

  it('refuses an admin whose sign-in did not pass two-factor sign-in, saying how to fix it', () => {
    for (const mfa of [undefined, '', 'sms', 'true']) {
      expect(() => requireGroup(withClaims({ sub: 'u1', 'cognito:groups': '[admin]', mfa }), 'admin')).toThrow(
        expect.objectContaining({ status: 403, message: MFA_REQUIRED_MESSAGE }),
      );
    }
    expect(MFA_REQUIRED_MESSAGE).toMatch(/^Turn on two-factor sign-in/);
  });

  it('does not ask clients and talent for the mark', () => {
    expect(requireGroup(withClaims({ sub: 'u3', 'cognito:groups': '[talent]' }), 'talent').sub).toBe('u3');
  });
});

describe('pre-token-generation trigger', () => {
  const settings: Record<string, string[] | undefined> = {};
  let send: jest.SpyInstance;
  beforeAll(() => {
    send = jest.spyOn(CognitoIdentityProviderClient.prototype, 'send').mockImplementation(async (command) => {
      const input = (command as { input: { UserPoolId: string; Username: string } }).input;
      expect(input.UserPoolId).toBe('pool-1');
      return { Username: input.Username, UserMFASettingList: settings[input.Username] } as never;
    });
  });
  afterAll(() => send.mockRestore());
  const tokenEvent = (userName: string) =>
    ({
      triggerSource: 'TokenGeneration_Authentication',
      userPoolId: 'pool-1',
      userName,
      request: { userAttributes: {}, groupConfiguration: {} },
      response: { claimsOverrideDetails: {} },
    }) as unknown as PreTokenGenerationTriggerEvent;

  it('marks the token of a person with TOTP turned on, and only theirs', async () => {
    settings['with-totp'] = ['SOFTWARE_TOKEN_MFA'];
    settings['with-sms'] = ['SMS_MFA'];
    settings['without'] = undefined;
    const marked = await preTokenGeneration(tokenEvent('with-totp'));
    expect(marked.response.claimsOverrideDetails?.claimsToAddOrOverride).toEqual({ mfa: 'totp' });
    for (const name of ['with-sms', 'without']) {
      const plain = await preTokenGeneration(tokenEvent(name));
      expect(plain.response.claimsOverrideDetails?.claimsToAddOrOverride).toBeUndefined();
    }
  });
});

describe('pre-sign-up trigger', () => {
  const signUp = (role: string | undefined, triggerSource = 'PreSignUp_SignUp') =>
    ({ triggerSource, request: { userAttributes: role ? { 'custom:role': role } : {} }, response: {} }) as unknown as PreSignUpTriggerEvent;

  it.each(['client', 'talent'])('accepts a self sign-up as %s', async (role) => {
    await expect(preSignUp(signUp(role))).resolves.toBeDefined();
  });

  it.each(['admin', 'Admin', undefined, 'superuser'])('refuses a self sign-up as %s', async (role) => {
    await expect(preSignUp(signUp(role))).rejects.toThrow(/client or talent/);
  });

  it('lets administrators create users without a role', async () => {
    await expect(preSignUp(signUp(undefined, 'PreSignUp_AdminCreateUser'))).resolves.toBeDefined();
  });
});
