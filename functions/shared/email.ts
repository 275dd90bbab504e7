import { SendEmailCommand } from '@aws-sdk/client-sesv2';
import * as z from 'zod';
import { sesClient } from './clients';

/** One rendered email (each wing keeps its templates beside its code, in `emails.ts` or `emails/`). */
export interface Email {
  subject: string;
  text: string;
  html: string;
}

/**
 * The settings of every function that sends email, to extend its configuration with: the
 * address mail comes from, the SES configuration set (bounce and complaint events) and the
 * site the emails link to. The stack sets the three together (`AppFunction.bindEmail`).
 */
export const EmailConfig = z.object({
  SENDER_EMAIL: z.string().min(3),
  SES_CONFIGURATION_SET: z.string().optional(),
  SITE_URL: z.url(),
});
export type EmailConfig = z.infer<typeof EmailConfig>;

/** Sends one email; `replyTo` makes a reply go to someone else (e.g. the person who wrote to us). Answers SES's message id. */
type SendEmail = (to: string, email: Email, replyTo?: string) => Promise<string | undefined>;

/** The one way a function sends: from its configuration's sender, through its configuration set. */
export function emailSender(config: EmailConfig): SendEmail {
  return async (to, email, replyTo) => {
    const out = await sesClient().send(
      new SendEmailCommand({
        FromEmailAddress: config.SENDER_EMAIL,
        Destination: { ToAddresses: [to] },
        ReplyToAddresses: replyTo ? [replyTo] : undefined,
        ConfigurationSetName: config.SES_CONFIGURATION_SET || undefined,
        Content: {
          Simple: {
            Subject: { Data: email.subject, Charset: 'UTF-8' },
            Body: { Text: { Data: email.text, Charset: 'UTF-8' }, Html: { Data: email.html, Charset: 'UTF-8' } },
          },
        },
      }),
    );
    return out.MessageId;
  };
}
