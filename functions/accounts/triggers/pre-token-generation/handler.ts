import { AdminGetUserCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import type { PreTokenGenerationTriggerEvent } from 'aws-lambda';
import { MFA_CLAIM, MFA_CLAIM_TOTP } from '../../../shared/auth';

let cognito: CognitoIdentityProviderClient | undefined;

/**
 * Cognito pre-token-generation: marks the id token of a person who has two-factor sign-in
 * (TOTP) turned on. With TOTP on, Cognito asks for the code at every sign-in, so the mark means
 * this sign-in passed it; admin routes refuse tokens without it.
 */
export async function handler(event: PreTokenGenerationTriggerEvent): Promise<PreTokenGenerationTriggerEvent> {
  cognito ??= new CognitoIdentityProviderClient({});
  const user = await cognito.send(new AdminGetUserCommand({ UserPoolId: event.userPoolId, Username: event.userName }));
  if (user.UserMFASettingList?.includes('SOFTWARE_TOKEN_MFA')) {
    event.response = { claimsOverrideDetails: { ...event.response?.claimsOverrideDetails, claimsToAddOrOverride: { [MFA_CLAIM]: MFA_CLAIM_TOTP } } };
  }
  return event;
}
