import * as z from 'zod';
import { VerificationRequest } from '../../../../events/identity';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { clientIpOf, rateLimiter } from '../../../shared/rate-limit';
import { stripeFromEnv } from '../../../shared/stripe';
import { foundingStore } from '../../store';
import { startVerification } from './service';

const config = loadConfig(
  z.object({ APPLICATIONS_TABLE: z.string().min(1), RATE_LIMITS_TABLE: z.string().min(1), STRIPE_SECRET_KEY_SECRET: z.string().min(1), SITE_URL: z.url() }),
);
const doc = documentClient();
const deps = {
  store: foundingStore(doc, config.APPLICATIONS_TABLE),
  limit: rateLimiter(doc, config.RATE_LIMITS_TABLE),
  stripe: stripeFromEnv,
  siteUrl: config.SITE_URL.replace(/\/$/, ''),
};

/** `POST /founding-identity/verification` (public, by identity token; docs/identity.md): Stripe's hosted ID verification for the application. */
export const handler = httpHandler(async (event) => json(200, await startVerification(deps, parseJsonBody(event, VerificationRequest).token, clientIpOf(event))));
