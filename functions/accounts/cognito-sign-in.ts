import {
  AdminDisableUserCommand,
  AdminEnableUserCommand,
  AdminUserGlobalSignOutCommand,
  CognitoIdentityProviderClient,
} from '@aws-sdk/client-cognito-identity-provider';
import type { SignInSwitch } from './account-state';

let cognito: CognitoIdentityProviderClient | undefined;

/**
 * The user pool's side of disabling an account. Accounts are keyed by the person's `sub`, which
 * the pool accepts as the username. An account whose user is gone from the pool (erased) has
 * nobody left to sign in: that is not an error.
 */
export function cognitoSignIn(userPoolId: string): SignInSwitch {
  cognito ??= new CognitoIdentityProviderClient({});
  const run = async (send: () => Promise<unknown>) => {
    try {
      await send();
    } catch (err) {
      if ((err as Error)?.name !== 'UserNotFoundException') throw err;
    }
  };
  return {
    disable: (id) => run(() => cognito!.send(new AdminDisableUserCommand({ UserPoolId: userPoolId, Username: id }))),
    enable: (id) => run(() => cognito!.send(new AdminEnableUserCommand({ UserPoolId: userPoolId, Username: id }))),
    signOutEverywhere: (id) => run(() => cognito!.send(new AdminUserGlobalSignOutCommand({ UserPoolId: userPoolId, Username: id }))),
  };
}
