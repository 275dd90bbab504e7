import type { Context } from 'aws-lambda';
import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { foundingStore } from '../../store';
import { loadConfig } from '../../../shared/config';
import { EmailConfig, emailSender } from '../../../shared/email';
import { idempotency } from '../../../shared/idempotency';
import { APPLICATION_ID_PATTERN } from '../../keys';
import { EMAIL_KINDS } from '../../emails/compose';
import { sendApplicationEmail } from './service';

const config = loadConfig(
  EmailConfig.extend({
    APPLICATIONS_TABLE: z.string().min(1),
    IDEMPOTENCY_TABLE: z.string().min(1),
    REVIEWERS_EMAIL: z.string().min(3),
    ADMIN_URL: z.url(),
  }),
);
const send = emailSender(config);

const Input = z.object({
  applicationId: z.string().regex(APPLICATION_ID_PATTERN),
  kind: z.enum(EMAIL_KINDS),
  review: z.object({ decision: z.enum(['accept', 'reject']).optional(), note: z.string().optional(), messageToApplicant: z.string().optional() }).passthrough().optional(),
});

/**
 * Workflow step Send*: `{ applicationId, kind, review? }` → `{ sent: true }`. Throws when SES
 * refuses or fails; the state machine retries with backoff, then records the failure.
 */
export async function handler(event: unknown, context?: Context) {
  const input = Input.parse(event);
  return sendApplicationEmail(
    {
      store: foundingStore(documentClient(), config.APPLICATIONS_TABLE),
      send,
      reviewersEmail: config.REVIEWERS_EMAIL,
      siteUrl: config.SITE_URL,
      adminUrl: config.ADMIN_URL,
      once: idempotency(config.IDEMPOTENCY_TABLE, context),
    },
    input,
  );
}
