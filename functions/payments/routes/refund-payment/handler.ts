import * as z from 'zod';
import { AdminRefundRequest } from '../../../../events/payments';
import { adminActorOf, requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { NotFoundError } from '../../../shared/errors';
import { httpHandler, idempotencyKeyOf, json, parseJsonBody } from '../../../shared/http';
import { log } from '../../../shared/log';
import { paymentsStore } from '../../store';
import { stripeFromEnv } from '../../stripe';
import { PAYMENT_NOT_FOUND_MESSAGE, refundPayment } from './service';

const config = loadConfig(z.object({ PAYMENTS_TABLE: z.string().min(1) }));
const PAYMENT_ID = /^pi_[A-Za-z0-9_]{1,200}$/;

/**
 * `POST /admin/payments/{id}/refund` `{reason, amountCents?}` (optional `Idempotency-Key`):
 * refunds a payment through Stripe; answers the refund (201). The credits go back on Stripe's
 * event. Admins only.
 */
export const handler = httpHandler(async (event) => {
  const caller = requireGroup(event, 'admin');
  const id = event.pathParameters?.id ?? '';
  if (!PAYMENT_ID.test(id)) throw new NotFoundError(PAYMENT_NOT_FOUND_MESSAGE);
  const key = idempotencyKeyOf(event);
  const body = parseJsonBody(event, AdminRefundRequest);
  const result = await refundPayment(
    { payments: paymentsStore(documentClient(), config.PAYMENTS_TABLE), stripe: await stripeFromEnv() },
    id,
    body,
    adminActorOf(caller),
    key,
  );
  log.info('refund asked of Stripe', { paymentIntentId: id, amountCents: result.amountCents, by: caller.sub });
  return json(201, result);
});
