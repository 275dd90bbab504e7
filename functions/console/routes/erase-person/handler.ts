import { AdminDeleteUserCommand, CognitoIdentityProviderClient, ListUsersCommand } from '@aws-sdk/client-cognito-identity-provider';
import * as z from 'zod';
import { ErasureRequest } from '../../../../events/erasure';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { eraseFoundingItems, planFoundingErasure, redactVerificationSessions } from '../../../founding';
import { accountStore, eraseAccountsByEmail } from '../../../accounts';
import { erasureStore } from '../../../shared/erasure';
import { s3Bucket } from '../../../shared/s3';
import { eraseMessagesFrom } from '../../../contact';
import { eraseWaitlistAddress } from '../../../waitlist';
import { eraseClientGenerations, findClientGenerations, keepLicensePixelHash, redactGeneration, redactLicense } from '../../../generation';
import { erasePayoutsOfTalent } from '../../../payouts';
import { eraseTalentPayouts } from '../../../royalties';
import { removeLikenessModel, trainingStore } from '../../../training';
import { pixelHashOf } from '../../../shared/pixel-hash';
import { replicateFromEnv } from '../../../shared/replicate';
import { stripeFromEnv } from '../../../shared/stripe';
import { erasePaymentsOf, paymentsStore } from '../../../payments';
import { erasePerson } from './service';

const config = loadConfig(
  z.object({
    WAITLIST_TABLE: z.string().min(1),
    MESSAGES_TABLE: z.string().min(1),
    APPLICATIONS_TABLE: z.string().min(1),
    IDEMPOTENCY_TABLE: z.string().min(1),
    ERASURES_TABLE: z.string().min(1),
    ACCOUNTS_TABLE: z.string().min(1),
    GENERATIONS_TABLE: z.string().min(1),
    PAYOUTS_TABLE: z.string().min(1),
    PHOTOS_BUCKET: z.string().min(1),
    IMAGES_BUCKET: z.string().min(1),
    TRAINING_TABLE: z.string().min(1),
    TRAINING_BUCKET: z.string().min(1),
    USER_POOL_ID: z.string().min(1),
    PAYMENTS_TABLE: z.string().min(1),
  }),
);

let cognito: CognitoIdentityProviderClient | undefined;

/** `POST /admin/erasures` (admins): erases a person's data by email; 201 with the erasure record. */
export const handler = httpHandler(async (event) => {
  const caller = requireGroup(event, 'admin');
  const body = parseJsonBody(event, ErasureRequest);
  const doc = documentClient();
  const photos = s3Bucket(config.PHOTOS_BUCKET);
  const images = s3Bucket(config.IMAGES_BUCKET);
  const generations = config.GENERATIONS_TABLE;
  cognito ??= new CognitoIdentityProviderClient({});
  const result = await erasePerson(
    {
      eraseWaitlist: (email) => eraseWaitlistAddress(doc, config.WAITLIST_TABLE, email),
      eraseMessages: (email) => eraseMessagesFrom(doc, config.MESSAGES_TABLE, email),
      planFounding: (email) => planFoundingErasure(doc, config.APPLICATIONS_TABLE, email),
      eraseFounding: (plan) => eraseFoundingItems(doc, config.APPLICATIONS_TABLE, plan),
      redactVerifications: async (sessionIds) => redactVerificationSessions((await stripeFromEnv()).identity.verificationSessions, sessionIds),
      findGenerations: (email) => findClientGenerations(doc, generations, email),
      eraseGenerations: (found, at) =>
        eraseClientGenerations(
          {
            images,
            pixelHashOf,
            keepPixelHash: (id, hash) => keepLicensePixelHash(doc, generations, id, hash),
            redactLicense: (id, when) => redactLicense(doc, generations, id, when),
            redactGeneration: (id, when) => redactGeneration(doc, generations, id, when),
          },
          found,
          at,
        ),
      // Statements and payout details (royalties), then the payout account and payouts (payouts).
      eraseTalentPayouts: async (talentId, at) => {
        const statements = await eraseTalentPayouts(doc, generations, talentId, at.toISOString());
        const payouts = await erasePayoutsOfTalent(doc, config.PAYOUTS_TABLE, talentId, at.toISOString());
        return { payoutDetails: statements.payoutDetails + payouts.accounts, statements: statements.statements };
      },
      // Versions on Replicate, training sets and samples, then the records (functions/training/removal.ts).
      eraseLikenessModel: (talentId) =>
        removeLikenessModel(
          { store: trainingStore(doc, config.TRAINING_TABLE), replicate: replicateFromEnv, files: s3Bucket(config.TRAINING_BUCKET), now: () => new Date() },
          talentId,
          { forget: true },
        ),
      deletePhotos: async (prefix) => {
        const keys = await photos.list(prefix);
        for (const key of keys) await photos.remove(key);
        return keys.length;
      },
      deleteAccounts: async (email) => {
        // The address is validated above (no quotes can reach the filter).
        const out = await cognito!.send(new ListUsersCommand({ UserPoolId: config.USER_POOL_ID, Filter: `email = "${email}"` }));
        const users = (out.Users ?? []).filter((u) => u.Attributes?.some((a) => a.Name === 'email' && a.Value?.toLowerCase() === email));
        for (const u of users) await cognito!.send(new AdminDeleteUserCommand({ UserPoolId: config.USER_POOL_ID, Username: u.Username! }));
        return users.length;
      },
      eraseAccountData: (email) => eraseAccountsByEmail(doc, config.ACCOUNTS_TABLE, email),
      // Before the account goes: its id leads to the customer (Stripe's list by address finds the rest).
      erasePayments: async (email, at) => {
        const account = await accountStore(doc, config.ACCOUNTS_TABLE).findByEmail(email);
        return erasePaymentsOf({ stripe: await stripeFromEnv(), store: paymentsStore(doc, config.PAYMENTS_TABLE) }, { accountIds: account ? [account.id] : [], email }, at);
      },
      eraseIdempotencyRecords: (email) => erasureStore(doc, config.ERASURES_TABLE).eraseIdempotencyRecords(config.IDEMPOTENCY_TABLE, email),
      record: async (email, by, removed, now) => {
        const { id, erasedAt, erasedBy } = await erasureStore(doc, config.ERASURES_TABLE).record(email, by, removed, now);
        return { id, erasedAt, erasedBy, removed };
      },
      now: () => new Date(),
    },
    body.email,
    caller.sub,
  );
  return json(201, result);
});
