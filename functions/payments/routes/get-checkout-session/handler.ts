import * as z from 'zod';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { NotFoundError } from '../../../shared/errors';
import { httpHandler, json } from '../../../shared/http';
import { paymentsStore } from '../../store';
import { stripeFromEnv } from '../../stripe';
import { CHECKOUT_NOT_FOUND_MESSAGE, checkoutStatus } from './service';

const config = loadConfig(z.object({ PAYMENTS_TABLE: z.string().min(1) }));

/** Stripe's checkout session ids: `cs_` then letters, digits and underscores. */
const SESSION_ID = /^cs_[A-Za-z0-9_]{1,200}$/;

/** `GET /me/checkout-sessions/{id}` (clients): the caller's own checkout only. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'client');
  const id = event.pathParameters?.id ?? '';
  // Not an id of ours at all: the same answer as another account's, without asking Stripe.
  if (!SESSION_ID.test(id)) throw new NotFoundError(CHECKOUT_NOT_FOUND_MESSAGE);
  const status = await checkoutStatus({ stripe: await stripeFromEnv(), store: paymentsStore(documentClient(), config.PAYMENTS_TABLE) }, caller.sub, id);
  return json(200, status);
});
