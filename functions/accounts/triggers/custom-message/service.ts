// Which branded message Cognito sends for each of its occasions (docs/product.md#account-emails).
import { accountCodeEmail, talentInvitationEmail, type AccountMessage, type CodePurpose } from '../../emails';

/** Cognito's CustomMessage trigger sources we brand. */
const CODE_SOURCES: Record<string, CodePurpose> = {
  CustomMessage_SignUp: 'sign-up',
  CustomMessage_ResendCode: 'resend',
  CustomMessage_ForgotPassword: 'forgot-password',
  CustomMessage_UpdateUserAttribute: 'update-email',
  CustomMessage_VerifyUserAttribute: 'verify-email',
};

/**
 * The subject and body for a trigger source, or undefined for one we do not brand (such as
 * CustomMessage_Authentication, an SMS sign-in code the product never sends): Cognito then
 * sends its default message.
 */
export function accountMessage(triggerSource: string, siteUrl: string): AccountMessage | undefined {
  if (triggerSource === 'CustomMessage_AdminCreateUser') return talentInvitationEmail(siteUrl);
  const purpose = CODE_SOURCES[triggerSource];
  return purpose ? accountCodeEmail(purpose) : undefined;
}
