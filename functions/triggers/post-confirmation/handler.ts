import { AdminAddUserToGroupCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import type { PostConfirmationTriggerEvent } from 'aws-lambda';
import { ROLE_ATTRIBUTE, SELF_SIGNUP_ROLES } from '../../../events/account-values';
import { log } from '../../shared/log';

let cognito: CognitoIdentityProviderClient | undefined;

/** Cognito post-confirmation: puts a newly confirmed person in the group of the role they chose. */
export async function handler(event: PostConfirmationTriggerEvent): Promise<PostConfirmationTriggerEvent> {
  if (event.triggerSource !== 'PostConfirmation_ConfirmSignUp') return event;
  const role = event.request.userAttributes?.[ROLE_ATTRIBUTE];
  if (!role || !(SELF_SIGNUP_ROLES as readonly string[]).includes(role)) {
    log.warn('confirmed user without a self sign-up role; no group added', { sub: event.request.userAttributes?.sub });
    return event;
  }
  cognito ??= new CognitoIdentityProviderClient({});
  await cognito.send(
    new AdminAddUserToGroupCommand({ UserPoolId: event.userPoolId, Username: event.userName, GroupName: role }),
  );
  return event;
}
