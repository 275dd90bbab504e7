import type { Context, EventBridgeEvent } from 'aws-lambda';
import * as z from 'zod';
import { WaitlistSignedUp } from '../../../../events/waitlist';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { sendEmail } from '../../../shared/email';
import { idempotency } from '../../../shared/idempotency';
import { waitlistStore } from '../../store';
import { sendWelcome } from './service';

const config = loadConfig(
  z.object({
    WAITLIST_TABLE: z.string().min(1),
    IDEMPOTENCY_TABLE: z.string().min(1),
    SENDER_EMAIL: z.string().min(3),
    SITE_URL: z.url(),
    SES_CONFIGURATION_SET: z.string().optional(),
  }),
);

/** Consumer of `Waitlist.SignedUp`: sends the welcome email through SES, once. */
export async function handler(event: EventBridgeEvent<'Waitlist.SignedUp', unknown>, context?: Context) {
  const detail = WaitlistSignedUp.parse(event.detail);
  const outcome = await sendWelcome(
    {
      store: waitlistStore(documentClient(), config.WAITLIST_TABLE),
      siteUrl: config.SITE_URL,
      send: (to, email) => sendEmail({ from: config.SENDER_EMAIL, configurationSet: config.SES_CONFIGURATION_SET }, to, email),
      once: idempotency(config.IDEMPOTENCY_TABLE, context),
    },
    detail,
  );
  return { outcome };
}
