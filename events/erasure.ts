import * as z from 'zod';

/**
 * `POST /admin/erasures` (admins): erase a person's data everywhere by their email address
 * (GDPR Art. 17, decision 019). `confirm` must repeat the address: the console's confirmation
 * step, checked on the server too, so a slip of the keyboard cannot erase someone else.
 */
export const ErasureRequest = z
  .object({
    email: z
      .string({ error: (i) => (i.input === undefined ? 'email is required' : 'email must be a string') })
      .trim()
      .toLowerCase()
      .min(1, { error: 'email is required' })
      .max(254, { error: 'email must be at most 254 characters' })
      .pipe(z.email({ error: 'email must be a valid email address' })),
    confirm: z
      .string({ error: (i) => (i.input === undefined ? 'confirm is required: type the address again' : 'confirm must be a string') })
      .trim()
      .toLowerCase(),
  })
  .strict()
  .refine((b) => b.email === b.confirm, { error: 'confirm must repeat the email address exactly', path: ['confirm'] });
export type ErasureRequest = z.infer<typeof ErasureRequest>;

/** What one erasure removed, counted by place. */
export interface ErasureCounts {
  waitlist: number;
  messages: number;
  applications: number;
  applicationItems: number;
  photos: number;
  accounts: number;
  /** Items of the accounts' profiles, credits and audit (Accounts table). */
  accountItems: number;
  idempotencyRecords: number;
  /** The client's generations, kept for accounting without their email, name or prompt (decision 035). */
  generations: number;
  /** The client's licenses, kept valid with the licensee shown as ERASED_LICENSEE. */
  licenses: number;
  /** Delivered image files (and their thumbnails) deleted. */
  images: number;
  /** The talent's payout details deleted. */
  payoutDetails: number;
  /** The talent's statements, kept for accounting without their name. */
  statements: number;
  /** Versions of the talent's likeness model deleted on Replicate. */
  modelVersions: number;
  /** The talent's training sets and sample images deleted. */
  trainingFiles: number;
  /** The talent's likeness model and training records deleted. */
  trainingRecords: number;
  /** The client's live Stripe subscriptions canceled at once (no more renewals). */
  subscriptionsCanceled: number;
  /** The client's Stripe customers deleted (with their saved cards). */
  stripeCustomersDeleted: number;
  /** The client's payments, kept for accounting and refunds without a receipt link or refund notes. */
  paymentsAnonymised: number;
}

/** Who a license names once its client's data is erased: the license stays valid, without the person. */
export const ERASED_LICENSEE = 'A Humanly client';
/** The name a statement keeps once its talent's data is erased (the figures stay for accounting). */
export const ERASED_TALENT_NAME = 'Former talent';

/** The answer: the erasure record (never the address). */
export interface ErasureResult {
  id: string;
  erasedAt: string;
  erasedBy: string;
  removed: ErasureCounts;
}
