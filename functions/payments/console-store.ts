// What refunds, disputes and the console read and write in the Payments table beyond the
// money-in store: a payment's refunds, the credits taken back, the flag of an account that spent
// refunded credits, and the console's lists (the month's payments, live subscriptions, flagged
// accounts). Keys from keys.ts; every write is conditional, so a repeated event changes nothing.
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { isConditionFailure } from '../shared/errors';
import { queryAll } from '../shared/query-all';
import { ACCOUNT_INDEX, FLAGGED_LIST, LIST_INDEX, paymentKeys, paymentsListOf, SUBSCRIPTIONS_LIST } from './keys';

/** A payment item (a paid invoice or a credit-pack checkout) as the console and refunds read it. */
export interface StoredPayment {
  paymentIntentId: string;
  accountId: string;
  kind: 'subscription' | 'credits';
  description: string;
  amountCents: number;
  credits: number;
  /** The ledger key (and lot source) its credits were granted under. */
  grantKey: string;
  at: string;
  invoiceId?: string;
  chargeId?: string;
  /** Refunded so far at Stripe, as the last refund event read it. */
  refundedCents: number;
  /** Credits refunds and a lost dispute asked back, those taken and those already spent. */
  creditsClaimed: number;
  creditsTakenBack: number;
  creditsShortfall: number;
  disputeId?: string;
  disputeStatus?: string;
  /** Refunds asked from the console: who, when, how much and why. */
  refundRequests: RefundRequestRecord[];
}

export interface RefundRequestRecord {
  at: string;
  by: string;
  amountCents: number;
  reason: string;
  refundId: string;
}

/** An account whose refunded or disputed credits were already spent. */
export interface AccountFlag {
  accountId: string;
  spentRefundedCredits: number;
  at: string;
}

/** A subscription mirror as the console reads it (the money-in side writes it). */
export interface StoredSubscription {
  accountId: string;
  subscriptionId: string;
  plan: string;
  state: string;
  currentPeriodEnd?: string;
  scheduledPlan?: string;
}

/** The `accountKey` of an account's items (the byAccount index). */
const accountKeyOf = (accountId: string) => `ACCOUNT#${accountId}`;

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/** A stored payment item, whichever optional fields it has yet. */
export function toStoredPayment(item: Record<string, unknown>): StoredPayment {
  const pk = String(item.pk ?? '');
  const requests = Array.isArray(item.refundRequests) ? (item.refundRequests as RefundRequestRecord[]) : [];
  return {
    paymentIntentId: str(item.paymentIntentId) ?? pk.replace(/^PAYMENT#/, ''),
    accountId: String(item.accountId),
    kind: item.kind === 'subscription' ? 'subscription' : 'credits',
    description: str(item.description) ?? (item.kind === 'subscription' ? 'Subscription' : 'Credit packs'),
    amountCents: num(item.amountCents),
    credits: num(item.credits),
    grantKey: String(item.grantKey ?? ''),
    at: String(item.at),
    ...(str(item.invoiceId) ? { invoiceId: str(item.invoiceId) } : {}),
    ...(str(item.chargeId) ? { chargeId: str(item.chargeId) } : {}),
    refundedCents: num(item.refundedCents),
    creditsClaimed: num(item.creditsClaimed),
    creditsTakenBack: num(item.creditsTakenBack),
    creditsShortfall: num(item.creditsShortfall),
    ...(str(item.disputeId) ? { disputeId: str(item.disputeId) } : {}),
    ...(str(item.disputeStatus) ? { disputeStatus: str(item.disputeStatus) } : {}),
    refundRequests: requests,
  };
}

function toSubscription(item: Record<string, unknown>): StoredSubscription | undefined {
  const accountId = str(item.accountId) ?? String(item.pk ?? '').replace(/^ACCOUNT#/, '');
  const subscriptionId = str(item.subscriptionId) ?? str(item.id);
  const plan = str(item.plan);
  const state = str(item.state);
  if (!subscriptionId || !plan || !state) return undefined;
  return {
    accountId,
    subscriptionId,
    plan,
    state,
    ...(str(item.currentPeriodEnd) ? { currentPeriodEnd: str(item.currentPeriodEnd) } : {}),
    ...(str(item.scheduledPlan) ? { scheduledPlan: str(item.scheduledPlan) } : {}),
  };
}

/** The outcome of one take-back, recorded once on the payment under its ledger key. */
export interface TakeBackRecord {
  key: string;
  /** Credits asked back (taken + shortfall). */
  claimed: number;
  takenBack: number;
  shortfall: number;
}

export type ConsoleStore = ReturnType<typeof consoleStore>;

export function consoleStore(doc: DynamoDBDocumentClient, tableName: string, now: () => Date = () => new Date()) {
  /** An update that may be refused by its condition because it was applied already: true when it was written. */
  const updateOnce = async (input: Omit<UpdateCommandInput, 'TableName'>): Promise<boolean> => {
    try {
      await doc.send(new UpdateCommand({ ...input, TableName: tableName }));
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  };

  return {
    async payment(paymentIntentId: string): Promise<StoredPayment | undefined> {
      const out = await doc.send(new GetCommand({ TableName: tableName, Key: paymentKeys.payment(paymentIntentId), ConsistentRead: true }));
      return out.Item ? toStoredPayment(out.Item) : undefined;
    },

    /** The account's payments, newest first. */
    async paymentsOf(accountId: string): Promise<StoredPayment[]> {
      const items = await queryAll(doc, tableName, {
        IndexName: ACCOUNT_INDEX,
        KeyConditionExpression: 'accountKey = :a',
        ExpressionAttributeValues: { ':a': accountKeyOf(accountId) },
        ScanIndexForward: false,
      });
      return items.filter((i) => String(i.pk ?? '').startsWith('PAYMENT#') && i.accountId === accountId).map(toStoredPayment);
    },

    /** Payments made in a month (`YYYY-MM`, UTC). */
    async paymentsOfMonth(month: string): Promise<StoredPayment[]> {
      const items = await queryAll(doc, tableName, {
        IndexName: LIST_INDEX,
        KeyConditionExpression: 'listKey = :l',
        ExpressionAttributeValues: { ':l': paymentsListOf(month) },
      });
      return items.map(toStoredPayment);
    },

    async subscriptions(): Promise<StoredSubscription[]> {
      const items = await queryAll(doc, tableName, {
        IndexName: LIST_INDEX,
        KeyConditionExpression: 'listKey = :l',
        ExpressionAttributeValues: { ':l': SUBSCRIPTIONS_LIST },
      });
      return items.flatMap((i) => toSubscription(i) ?? []);
    },

    async subscriptionOf(accountId: string): Promise<StoredSubscription | undefined> {
      const out = await doc.send(new GetCommand({ TableName: tableName, Key: paymentKeys.subscription(accountId), ConsistentRead: true }));
      return out.Item ? toSubscription(out.Item) : undefined;
    },

    async customerOf(accountId: string): Promise<string | undefined> {
      const out = await doc.send(new GetCommand({ TableName: tableName, Key: paymentKeys.customerOfAccount(accountId), ConsistentRead: true }));
      return str(out.Item?.customerId);
    },

    async flags(): Promise<AccountFlag[]> {
      const items = await queryAll(doc, tableName, {
        IndexName: LIST_INDEX,
        KeyConditionExpression: 'listKey = :l',
        ExpressionAttributeValues: { ':l': FLAGGED_LIST },
      });
      return items.map((i) => ({ accountId: String(i.accountId), spentRefundedCredits: num(i.spentRefundedCredits), at: String(i.at) }));
    },

    async flagOf(accountId: string): Promise<AccountFlag | undefined> {
      const out = await doc.send(new GetCommand({ TableName: tableName, Key: paymentKeys.flag(accountId), ConsistentRead: true }));
      return out.Item ? { accountId, spentRefundedCredits: num(out.Item.spentRefundedCredits), at: String(out.Item.at) } : undefined;
    },

    /**
     * Raises the payment's refunded amount to what Stripe says (never lowers it: an older event
     * read later changes nothing). True when it changed.
     */
    recordRefunded(paymentIntentId: string, refundedCents: number, chargeId: string): Promise<boolean> {
      return updateOnce({
        Key: paymentKeys.payment(paymentIntentId),
        UpdateExpression: 'SET refundedCents = :r, chargeId = :c',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(refundedCents) OR refundedCents < :r)',
        ExpressionAttributeValues: { ':r': refundedCents, ':c': chargeId },
      });
    },

    /** The payment's dispute as Stripe last said. */
    recordDispute(paymentIntentId: string, disputeId: string, status: string): Promise<boolean> {
      return updateOnce({
        Key: paymentKeys.payment(paymentIntentId),
        UpdateExpression: 'SET disputeId = :d, disputeStatus = :s',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':d': disputeId, ':s': status },
      });
    },

    /** Adds a take-back's figures to the payment, once per ledger key. */
    recordTakeBack(paymentIntentId: string, record: TakeBackRecord): Promise<boolean> {
      return updateOnce({
        Key: paymentKeys.payment(paymentIntentId),
        UpdateExpression: 'ADD creditsClaimed :c, creditsTakenBack :t, creditsShortfall :s, takeBackKeys :k',
        ConditionExpression: 'attribute_exists(pk) AND NOT contains(takeBackKeys, :key)',
        ExpressionAttributeValues: { ':c': record.claimed, ':t': record.takenBack, ':s': record.shortfall, ':k': new Set([record.key]), ':key': record.key },
      });
    },

    /** Flags the account for the console with the credits it spent before they were taken back, once per ledger key. */
    flagAccount(accountId: string, record: TakeBackRecord): Promise<boolean> {
      return updateOnce({
        Key: paymentKeys.flag(accountId),
        UpdateExpression: 'SET accountId = :a, listKey = :l, #at = if_not_exists(#at, :now) ADD spentRefundedCredits :s, takeBackKeys :k',
        ConditionExpression: 'NOT contains(takeBackKeys, :key)',
        ExpressionAttributeNames: { '#at': 'at' },
        ExpressionAttributeValues: { ':a': accountId, ':l': FLAGGED_LIST, ':now': now().toISOString(), ':s': record.shortfall, ':k': new Set([record.key]), ':key': record.key },
      });
    },

    /** Who asked Stripe for a refund from the console, and why (appended; a replayed refund once). */
    recordRefundRequest(paymentIntentId: string, request: RefundRequestRecord): Promise<boolean> {
      return updateOnce({
        Key: paymentKeys.payment(paymentIntentId),
        UpdateExpression: 'SET refundRequests = list_append(if_not_exists(refundRequests, :empty), :one) ADD refundIds :id',
        ConditionExpression: 'attribute_exists(pk) AND NOT contains(refundIds, :refund)',
        ExpressionAttributeValues: { ':empty': [], ':one': [request], ':id': new Set([request.refundId]), ':refund': request.refundId },
      });
    },
  };
}
