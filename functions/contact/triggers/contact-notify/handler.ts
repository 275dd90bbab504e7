import type { Context, EventBridgeEvent } from 'aws-lambda';
import * as z from 'zod';
import { ContactMessageReceivedV1 } from '../../../../events/contact';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { EmailConfig, emailSender } from '../../../shared/email';
import { idempotency } from '../../../shared/idempotency';
import { messageStore } from '../../store';
import { notifyContact } from './service';

const config = loadConfig(
  EmailConfig.extend({
    MESSAGES_TABLE: z.string().min(1),
    IDEMPOTENCY_TABLE: z.string().min(1),
    CONTACT_EMAIL: z.string().min(3),
  }),
);
const send = emailSender(config);

/** Consumer of `Contact.MessageReceived`: emails the team and acknowledges the sender, once each. */
export async function handler(event: EventBridgeEvent<'Contact.MessageReceived', unknown>, context?: Context) {
  const detail = ContactMessageReceivedV1.parse(event.detail);
  const outcome = await notifyContact(
    {
      store: messageStore(documentClient(), config.MESSAGES_TABLE),
      teamEmail: config.CONTACT_EMAIL,
      siteUrl: config.SITE_URL,
      send,
      once: idempotency(config.IDEMPOTENCY_TABLE, context),
    },
    detail,
  );
  return { outcome };
}
