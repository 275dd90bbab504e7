// The payouts wing's dependencies, built once per function from its configuration: the Stripe
// client, the stores, the talent's contact for emails, the idempotency utility, the stage's minimum.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Context } from 'aws-lambda';
import * as z from 'zod';
import { talentStore } from '../catalog';
import { ApplicationNotFoundError, foundingStore, type StoredApplication } from '../founding';
import { royaltyStore } from '../royalties';
import { EmailConfig, type SendEmail } from '../shared/email';
import { idempotency } from '../shared/idempotency';
import { stripeFromEnv } from '../shared/stripe';
import type { PayoutDeps } from './run';
import { payoutStore } from './store';

/** A function of the payout run: its tables, site and minimum (with the email settings). */
export const PayoutRunConfig = EmailConfig.extend({
  PAYOUTS_TABLE: z.string().min(1),
  GENERATIONS_TABLE: z.string().min(1),
  TALENT_TABLE: z.string().min(1),
  APPLICATIONS_TABLE: z.string().min(1),
  PAYOUT_MINIMUM_CENTS: z.coerce.number().int().nonnegative(),
  /** The idempotency records: the payout emails (and the Connect webhook's deliveries) once each. */
  IDEMPOTENCY_TABLE: z.string().min(1),
});
export type PayoutRunConfig = z.infer<typeof PayoutRunConfig>;

/**
 * The talent as the catalog names them, and the founding application they came from (seeded
 * talent, and talent whose application was erased, have none).
 */
function talentOrigin(doc: DynamoDBDocumentClient, config: PayoutRunConfig) {
  const catalog = talentStore(doc, config.TALENT_TABLE);
  const applications = foundingStore(doc, config.APPLICATIONS_TABLE);
  return async (talentId: string): Promise<{ name: string; application?: StoredApplication } | undefined> => {
    const found = await catalog.getForGeneration(talentId);
    if (!found) return undefined;
    const applicationId = found.controls.applicationId;
    if (!applicationId) return { name: found.talent.name };
    try {
      return { name: found.talent.name, application: await applications.getApplication(applicationId) };
    } catch (err) {
      if (!(err instanceof ApplicationNotFoundError)) throw err;
      return { name: found.talent.name };
    }
  };
}

/** The name on the talent's verified ID (Stripe Identity, docs/identity.md), when their application has one. */
export function verifiedNameOf(doc: DynamoDBDocumentClient, config: PayoutRunConfig): (talentId: string) => Promise<string | undefined> {
  const origin = talentOrigin(doc, config);
  return async (talentId) => {
    const verification = (await origin(talentId))?.application?.verification;
    return verification?.state === 'verified' ? verification.name?.verified || undefined : undefined;
  };
}

/** Pass the invocation's context: an idempotency record in progress then expires with the invocation. */
export async function payoutDeps(doc: DynamoDBDocumentClient, config: PayoutRunConfig, send: SendEmail, context?: Context): Promise<PayoutDeps> {
  const origin = talentOrigin(doc, config);
  return {
    stripe: await stripeFromEnv(),
    store: payoutStore(doc, config.PAYOUTS_TABLE),
    statements: royaltyStore(doc, config.GENERATIONS_TABLE),
    // The catalog names the talent; their founding application holds their address (seeded talent have none).
    contact: async (talentId) => {
      const found = await origin(talentId);
      if (!found) return undefined;
      const email = found.application?.email;
      return { name: found.name, ...(email ? { email } : {}) };
    },
    send,
    once: idempotency(config.IDEMPOTENCY_TABLE, context),
    siteUrl: config.SITE_URL,
    minimumCents: config.PAYOUT_MINIMUM_CENTS,
    now: () => new Date(),
  };
}
