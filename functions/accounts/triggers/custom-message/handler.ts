import type { CustomMessageTriggerEvent } from 'aws-lambda';
import { accountMessage } from './service';

const siteUrl = process.env.SITE_URL ?? '';
if (!siteUrl) throw new Error('SITE_URL is not set: the invitation links to the site\'s sign-in page');

/**
 * Cognito CustomMessage: our subject and body for the codes Cognito emails (sign-up, resend,
 * forgot password, email change) and for a talent's invitation. Cognito fills `{####}` and
 * `{username}` itself; this function never sees a code or a password.
 */
export async function handler(event: CustomMessageTriggerEvent): Promise<CustomMessageTriggerEvent> {
  const message = accountMessage(event.triggerSource, siteUrl);
  if (message) {
    event.response.emailSubject = message.subject;
    event.response.emailMessage = message.html;
  }
  return event;
}
