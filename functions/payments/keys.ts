// Keys of the Payments table (docs/payments.md). Every item is `pk`/`sk`; the two indexes list a
// client's items (`accountKey`, `at`) and the console's lists (`listKey`, `at`).
export { PAYMENTS_ACCOUNT_INDEX as ACCOUNT_INDEX, PAYMENTS_LIST_INDEX as LIST_INDEX } from '../../events/resource-names';

export const paymentKeys = {
  /** The account's Stripe customer (`customerId`); written once, under a condition. */
  customerOfAccount: (accountId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: 'CUSTOMER' }),
  /** The reverse: which account a Stripe customer is (`accountId`). */
  accountOfCustomer: (customerId: string) => ({ pk: `CUSTOMER#${customerId}`, sk: 'ACCOUNT' }),
  /** The account's subscription as last read from Stripe (listKey SUBSCRIPTIONS: recurring revenue). */
  subscription: (accountId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: 'SUBSCRIPTION' }),
  /** A checkout we created: whose it is, what it buys, whether its event was applied. */
  checkout: (sessionId: string) => ({ pk: `CHECKOUT#${sessionId}`, sk: 'CHECKOUT' }),
  /**
   * The account's one open plan checkout (`token`, `plan`, `sessionId`, `url`, `expiresAt`): claimed
   * under a condition before a plan's session is made, so two tabs never open two (docs/payments.md,
   * "One open plan checkout per account").
   */
  planCheckout: (accountId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: 'PLAN_CHECKOUT' }),
  /**
   * One payment (a paid invoice or a credit-pack checkout) by its payment intent: account, amount,
   * credits and the ledger lot they were granted as (`grantKey`), refunds and credits taken back
   * (accountKey: the client's list; listKey `PAYMENTS#<YYYY-MM>`: the month's revenue).
   */
  payment: (paymentIntentId: string) => ({ pk: `PAYMENT#${paymentIntentId}`, sk: 'PAYMENT' }),
  /** An account that spent credits later refunded or disputed (listKey FLAGGED). */
  flag: (accountId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: 'FLAG' }),
  /**
   * A Stripe event about an erased client, applied to nothing (listKey ERASED_EVENTS): by the
   * event's id, or by what it was about when the caller did not say which event it was.
   */
  erasedAccountEvent: (ref: string) => ({ pk: `ERASED_EVENT#${ref}`, sk: 'EVENT' }),
};

export const SUBSCRIPTIONS_LIST = 'SUBSCRIPTIONS';
export const FLAGGED_LIST = 'FLAGGED';
export const ERASED_EVENTS_LIST = 'ERASED_EVENTS';
export const paymentsListOf = (month: string) => `PAYMENTS#${month}`;
