import type { PreSignUpTriggerEvent } from 'aws-lambda';
import { parseGroups, requireGroup } from '../../../functions/shared/auth';
import type { HttpEvent } from '../../../functions/shared/http';
import { handler as preSignUp } from '../../../functions/triggers/pre-sign-up/handler';

const withClaims = (claims?: Record<string, unknown>) =>
  ({ requestContext: { authorizer: claims ? { jwt: { claims } } : undefined } }) as unknown as HttpEvent;

describe('groups from API Gateway claims', () => {
  it('reads the "[a b]" string form and arrays', () => {
    expect(parseGroups('[admin talent]')).toEqual(['admin', 'talent']);
    expect(parseGroups(['client'])).toEqual(['client']);
    expect(parseGroups(undefined)).toEqual([]);
  });

  it('lets admins through and refuses others with 403, anonymous with 401', () => {
    expect(requireGroup(withClaims({ sub: 'u1', 'cognito:groups': '[admin]' }), 'admin').sub).toBe('u1');
    expect(() => requireGroup(withClaims({ sub: 'u2', 'cognito:groups': '[client]' }), 'admin')).toThrow(
      expect.objectContaining({ status: 403 }),
    );
    expect(() => requireGroup(withClaims(), 'admin')).toThrow(expect.objectContaining({ status: 401 }));
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
