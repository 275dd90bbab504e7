import type { Context, EventBridgeEvent } from 'aws-lambda';
import * as z from 'zod';
import { WaitlistSignedUp } from '../../../../events/waitlist';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { EmailConfig, emailSender } from '../../../shared/email';
import { idempotency } from '../../../shared/idempotency';
import { waitlistStore } from '../../store';
import { sendWelcome } from './service';

const config = loadConfig(
  EmailConfig.extend({
    WAITLIST_TABLE: z.string().min(1),
    IDEMPOTENCY_TABLE: z.string().min(1),
  }),
);
const send = emailSender(config);

/** Consumer of `Waitlist.SignedUp`: sends the welcome email through SES, once. */
export async function handler(event: EventBridgeEvent<'Waitlist.SignedUp', unknown>, context?: Context) {
  const detail = WaitlistSignedUp.parse(event.detail);
  const outcome = await sendWelcome(
    {
      store: waitlistStore(documentClient(), config.WAITLIST_TABLE),
      siteUrl: config.SITE_URL,
      send,
      once: idempotency(config.IDEMPOTENCY_TABLE, context),
    },
    detail,
  );
  return { outcome };
}
