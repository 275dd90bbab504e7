import type { PreSignUpTriggerEvent } from 'aws-lambda';
import { ROLE_ATTRIBUTE, SELF_SIGNUP_ROLES } from '../../../../events/account-values';

/**
 * Cognito pre-sign-up: a person signing themself up must choose client or talent. `admin`
 * (or anything else) is refused, so self sign-up can never make an administrator. Users an
 * administrator creates are not self sign-ups and pass. So does a Google user's first sign-in
 * (PreSignUp_ExternalProvider): Google's sign-in carries no role, and the account is a client's
 * (the PostConfirmation trigger gives it that role).
 */
export async function handler(event: PreSignUpTriggerEvent): Promise<PreSignUpTriggerEvent> {
  if (event.triggerSource === 'PreSignUp_AdminCreateUser' || event.triggerSource === 'PreSignUp_ExternalProvider') return event;
  const role = event.request.userAttributes?.[ROLE_ATTRIBUTE];
  if (!role || !(SELF_SIGNUP_ROLES as readonly string[]).includes(role)) {
    throw new Error(`Choose an account type: ${SELF_SIGNUP_ROLES.join(' or ')}.`);
  }
  return event;
}
