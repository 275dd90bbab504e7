// Payments' API (docs/product.md#payments): the client's checkouts, billing portal and billing
// state, and the console's view of a client's billing, refunds and revenue. Web, admin and
// functions all parse with these schemas.
import * as z from 'zod';

import { CHECKOUT_STATES, CREDIT_PACK_SIZES, MAX_PACK_QUANTITY, PAID_PLAN_IDS, SUBSCRIPTION_STATES } from './payment-values';
import { PLAN_IDS } from './plans';

const Iso = z.iso.datetime();
const Cents = z.number().int();

const PaidPlan = z.enum(PAID_PLAN_IDS as [string, ...string[]], { error: `plan must be one of ${PAID_PLAN_IDS.join(', ')}` });
const PackSize = z
  .number()
  .int()
  .refine((n) => (CREDIT_PACK_SIZES as readonly number[]).includes(n), { error: `pack must be one of ${CREDIT_PACK_SIZES.join(', ')} credits` });

/**
 * `POST /me/checkout-sessions`: a plan (Checkout in subscription mode) or credit packs (payment
 * mode). Prices come from the server's configuration: the body names what, never a price.
 */
export const CreateCheckoutRequest = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('plan'), plan: PaidPlan }),
  z.strictObject({
    kind: z.literal('credits'),
    pack: PackSize,
    quantity: z
      .number()
      .int({ error: 'quantity must be a whole number' })
      .min(1, { error: 'quantity must be at least 1' })
      .max(MAX_PACK_QUANTITY, { error: `quantity can be at most ${MAX_PACK_QUANTITY}` }),
  }),
]);
export type CreateCheckoutRequest = z.infer<typeof CreateCheckoutRequest>;

/** Where to send the browser: Stripe's hosted page. */
export const RedirectResponse = z.object({ id: z.string().optional(), url: z.url() });
export type RedirectResponse = z.infer<typeof RedirectResponse>;

/**
 * `GET /me/checkout-sessions/{id}`: how a checkout the portal came back from stands. `confirming`
 * means paid at Stripe but not yet applied by a verified event; `applied` once credits or the
 * plan are ours.
 */
export const CheckoutStatus = z.object({
  id: z.string(),
  state: z.enum(CHECKOUT_STATES),
  kind: z.enum(['plan', 'credits']),
  plan: z.enum(PLAN_IDS).optional(),
  credits: z.number().int().optional(),
});
export type CheckoutStatus = z.infer<typeof CheckoutStatus>;

/** A subscription as the portal and console show it. */
export const SubscriptionSummary = z.object({
  id: z.string(),
  plan: z.enum(PLAN_IDS),
  state: z.enum(SUBSCRIPTION_STATES),
  /** When the current period ends: the renewal date, or the end date when canceling. */
  currentPeriodEnd: Iso,
  /** A downgrade waiting for the period's end. */
  scheduledPlan: z.enum(PLAN_IDS).optional(),
});
export type SubscriptionSummary = z.infer<typeof SubscriptionSummary>;

/** `GET /me/billing`: the client's plan, subscription and whether they can open the billing portal. */
export const BillingResponse = z.object({
  plan: z.enum(PLAN_IDS),
  subscription: SubscriptionSummary.optional(),
  /** True once the account has a Stripe customer: the billing portal can open. */
  hasBillingAccount: z.boolean(),
  /** Price of one extra credit on the current plan, in cents; null on Free (upgrade needed). */
  extraCreditCents: Cents.nullable(),
});
export type BillingResponse = z.infer<typeof BillingResponse>;

/** One invoice or one payment as the console lists it. */
export const PaymentRecord = z.object({
  /** The payment intent's id (refunds name it). */
  id: z.string(),
  kind: z.enum(['subscription', 'credits']),
  description: z.string(),
  amountCents: Cents,
  refundedCents: Cents,
  status: z.enum(['paid', 'failed', 'refunded', 'partially_refunded', 'disputed', 'dispute_lost', 'open']),
  credits: z.number().int(),
  /** Credits taken back after a refund or lost dispute, and those already spent (flagged). */
  creditsTakenBack: z.number().int(),
  creditsShortfall: z.number().int(),
  at: Iso,
  invoiceId: z.string().optional(),
  receiptUrl: z.string().optional(),
  /** Refunds asked from the console: when, by which admin (email and Cognito sub), how much and why (the console's view only). */
  refunds: z.array(z.object({ at: Iso, by: z.string(), bySub: z.string().optional(), amountCents: Cents, reason: z.string() })).optional(),
});
export type PaymentRecord = z.infer<typeof PaymentRecord>;

/** `GET /admin/users/{id}/billing`: a client's subscription, invoices and payments. */
export const AdminBillingResponse = z.object({
  customerId: z.string().optional(),
  subscription: SubscriptionSummary.optional(),
  payments: z.array(PaymentRecord),
  /** Credits refunded or disputed after they were spent: the console flags the account. */
  spentRefundedCredits: z.number().int(),
});
export type AdminBillingResponse = z.infer<typeof AdminBillingResponse>;

/** `POST /admin/payments/{id}/refund`: refunds a payment through Stripe (whole, or `amountCents`). */
export const AdminRefundRequest = z.strictObject({
  reason: z.string().trim().min(1, { error: 'Give a reason for the refund.' }).max(200, { error: 'The reason can be at most 200 characters.' }),
  amountCents: z.number().int().positive().optional(),
});
export type AdminRefundRequest = z.infer<typeof AdminRefundRequest>;

/**
 * What `POST /admin/payments/{id}/refund` answers: the refund as Stripe took it. The credits it
 * bought are taken back only when Stripe's verified `charge.refunded` event lands.
 */
export const AdminRefundResponse = z.object({
  refundId: z.string(),
  amountCents: Cents,
  /** What is left to refund on the payment after this one. */
  remainingCents: Cents,
  status: z.string(),
  message: z.string(),
});
export type AdminRefundResponse = z.infer<typeof AdminRefundResponse>;

/** `GET /admin/revenue`: the dashboard's money figures. */
export const RevenueResponse = z.object({
  month: z.string(),
  /** Paid this calendar month (UTC), less refunds, in cents. */
  monthToDateCents: Cents,
  /** Monthly recurring revenue: the price of every active or past-due subscription. */
  recurringCents: Cents,
  activeSubscriptions: z.number().int(),
  flaggedAccounts: z.number().int(),
});
export type RevenueResponse = z.infer<typeof RevenueResponse>;
