import { SendEmailCommand } from '@aws-sdk/client-sesv2';
import { sesClient } from './clients';

/** One rendered email (each wing keeps its templates beside its code, in `emails.ts` or `emails/`). */
export interface Email {
  subject: string;
  text: string;
  html: string;
}

export interface Sender {
  from: string;
  configurationSet?: string;
}

/** Sends one email; `replyTo` makes a reply go to someone else (e.g. the person who wrote to us). */
export async function sendEmail(sender: Sender, to: string, email: Email, replyTo?: string): Promise<string | undefined> {
  const out = await sesClient().send(
    new SendEmailCommand({
      FromEmailAddress: sender.from,
      Destination: { ToAddresses: [to] },
      ReplyToAddresses: replyTo ? [replyTo] : undefined,
      ConfigurationSetName: sender.configurationSet || undefined,
      Content: {
        Simple: {
          Subject: { Data: email.subject, Charset: 'UTF-8' },
          Body: { Text: { Data: email.text, Charset: 'UTF-8' }, Html: { Data: email.html, Charset: 'UTF-8' } },
        },
      },
    }),
  );
  return out.MessageId;
}
