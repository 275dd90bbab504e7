// The one data access of payments (docs/payments.md#keys): every read and write of the Payments
// table goes through here. The layout is in keys.ts: the customer mapping both ways (written once,
// under a condition), the checkouts we created, one payment per payment intent, the account's
// subscription as last read from Stripe, refunds and disputes recorded on a payment, erased
// clients' events and flags. One store for the table: the webhook, refunds and the console use it.
import { DeleteCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { SubscriptionState } from '../../events/payment-values';
import type { PaymentRecord } from '../../events/payments';
import type { PlanId } from '../../events/plans';
import { isConditionFailure } from '../shared/errors';
import { queryAll } from '../shared/query-all';
import { tableItems } from '../shared/store';
import { ACCOUNT_INDEX, ERASED_EVENTS_LIST, FLAGGED_LIST, LIST_INDEX, SUBSCRIPTIONS_LIST, paymentKeys, paymentsListOf } from './keys';

/** The `accountKey` of an account's payments (the `byAccount` index). */
const paymentsOfAccount = (accountId: string) => `PAYMENTS#${accountId}`;

/** The calendar month (UTC) of an ISO time: `YYYY-MM`, the revenue list a payment belongs to. */
const monthOf = (iso: string) => iso.slice(0, 7);

/** A checkout we created for an account: what it buys, and whether its event was applied. */
export interface CheckoutRecord {
  sessionId: string;
  accountId: string;
  kind: 'plan' | 'credits';
  plan?: PlanId;
  /** Credits a pack checkout buys (pack size times quantity). */
  credits?: number;
  createdAt: string;
  /** When the verified event that grants its credits or sets its plan was applied. */
  appliedAt?: string;
}

/** The account's plan checkout while one is open: claimed first (`token`), then its session. */
export interface PlanCheckoutClaim {
  accountId: string;
  /** Who claimed it: only the same token may fill it in, drop it or replace it. */
  token: string;
  plan: PlanId;
  /** When the claim lapses: the session's `expires_at`, or a minute after the claim while its session is being made. */
  expiresAt: string;
  sessionId?: string;
  url?: string;
}

/** A payment (a paid invoice or a pack checkout) by its payment intent. */
export interface StoredPayment {
  paymentIntentId: string;
  accountId: string;
  kind: PaymentRecord['kind'];
  description: string;
  amountCents: number;
  refundedCents: number;
  status: PaymentRecord['status'];
  credits: number;
  creditsTakenBack: number;
  creditsShortfall: number;
  /** When it was paid (ISO); its month is the revenue list it is on. */
  at: string;
  /** The ledger source of its credits' lot (`checkout:<cs>` or `invoice:<in>`): refunds take back from it. */
  source: string;
  /** The ledger key its credits were granted under. */
  grantKey: string;
  invoiceId?: string;
  checkoutId?: string;
  subscriptionId?: string;
  chargeId?: string;
  receiptUrl?: string;
  /** Set when the client's data was erased: the payment stays for accounting, without a receipt link or refund notes. */
  erasedAt?: string;
}

/** A refund asked from the console: who (the admin's email and Cognito sub), when, how much and why. */
export interface RefundRequestRecord {
  at: string;
  by: string;
  /** Absent on refunds recorded before the sub was kept. */
  bySub?: string;
  amountCents: number;
  reason: string;
  refundId: string;
}

/** A payment with what refunds and disputes recorded on it. */
export interface ChargedPayment extends StoredPayment {
  /** Credits refunds and a lost dispute asked back so far (taken back + shortfall). */
  creditsClaimed: number;
  disputeId?: string;
  /** The dispute's status as Stripe last said (needs_response, won, lost...). */
  disputeStatus?: string;
  refundRequests: RefundRequestRecord[];
}

/** The outcome of one take-back, recorded once on the payment under its ledger key. */
export interface TakeBackRecord {
  key: string;
  /** Credits asked back (taken + shortfall). */
  claimed: number;
  takenBack: number;
  shortfall: number;
}

/** A stored payment item with every field refunds read. */
function toChargedPayment(item: Record<string, unknown>): ChargedPayment {
  const optional = (['invoiceId', 'checkoutId', 'subscriptionId', 'chargeId', 'receiptUrl', 'disputeId', 'disputeStatus', 'erasedAt'] as const).filter((f) => nonEmpty(item[f]));
  return {
    paymentIntentId: nonEmpty(item.paymentIntentId) ?? String(item.pk ?? '').replace(/^PAYMENT#/, ''),
    accountId: String(item.accountId ?? ''),
    kind: item.kind === 'subscription' ? 'subscription' : 'credits',
    description: String(item.description ?? ''),
    amountCents: finite(item.amountCents),
    refundedCents: finite(item.refundedCents),
    status: (nonEmpty(item.status) ?? 'paid') as PaymentRecord['status'],
    credits: finite(item.credits),
    creditsTakenBack: finite(item.creditsTakenBack),
    creditsShortfall: finite(item.creditsShortfall),
    creditsClaimed: finite(item.creditsClaimed),
    at: String(item.at ?? ''),
    source: String(item.source ?? item.grantKey ?? ''),
    grantKey: String(item.grantKey ?? item.source ?? ''),
    ...Object.fromEntries(optional.map((f) => [f, item[f]])),
    refundRequests: Array.isArray(item.refundRequests) ? (item.refundRequests as RefundRequestRecord[]) : [],
  };
}

/** The account's subscription as last read from Stripe. */
export interface SubscriptionMirror {
  accountId: string;
  subscriptionId: string;
  customerId: string;
  plan: PlanId;
  /** Stripe's own status (active, past_due, canceled...). */
  status: string;
  state: SubscriptionState;
  currentPeriodStart: string;
  currentPeriodEnd: string;
  scheduledPlan?: PlanId;
  /** The plan's monthly price in cents (recurring revenue). */
  priceCents: number;
  updatedAt: string;
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const nonEmpty = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
const finite = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** What a refund request's reason becomes once its client is erased (it was typed by an admin and may name them). */
const ERASED_REFUND_REASON = "(erased with the client's data)";

/** A Stripe event about an erased client, as recorded (ids only, no personal data). */
export interface ErasedAccountEvent {
  /** The event's id and type, when the caller knows them. */
  eventId?: string;
  eventType?: string;
  /** What it was about: `subscription`, `invoice`, `checkout`, `payment` (a refund or dispute). */
  object: string;
  objectId: string;
  customerId?: string;
  accountId?: string;
  /** The deletion of a subscription the erasure itself canceled: recorded, not alarmed. */
  expected: boolean;
}

const num = (v: unknown) => (typeof v === 'number' ? v : 0);

function toCheckout(item: Record<string, unknown>): CheckoutRecord {
  return {
    sessionId: String(item.sessionId),
    accountId: String(item.accountId),
    kind: item.kind === 'credits' ? 'credits' : 'plan',
    ...(str(item.plan) ? { plan: item.plan as PlanId } : {}),
    ...(typeof item.credits === 'number' ? { credits: item.credits } : {}),
    createdAt: String(item.createdAt),
    ...(str(item.appliedAt) ? { appliedAt: String(item.appliedAt) } : {}),
  };
}

const PAYMENT_FIELDS = ['paymentIntentId', 'accountId', 'kind', 'description', 'at', 'source', 'grantKey', 'status'] as const;
const PAYMENT_NUMBERS = ['amountCents', 'refundedCents', 'credits', 'creditsTakenBack', 'creditsShortfall'] as const;
const PAYMENT_OPTIONAL = ['invoiceId', 'checkoutId', 'subscriptionId', 'chargeId', 'receiptUrl', 'erasedAt'] as const;

function toPayment(item: Record<string, unknown>): StoredPayment {
  const out: Record<string, unknown> = {};
  for (const f of PAYMENT_FIELDS) out[f] = String(item[f] ?? '');
  for (const f of PAYMENT_NUMBERS) out[f] = num(item[f]);
  for (const f of PAYMENT_OPTIONAL) if (str(item[f])) out[f] = item[f];
  return out as unknown as StoredPayment;
}

function toSubscription(item: Record<string, unknown>): SubscriptionMirror {
  return {
    accountId: String(item.accountId),
    subscriptionId: String(item.subscriptionId),
    customerId: String(item.customerId),
    plan: item.plan as PlanId,
    status: String(item.status),
    state: item.state as SubscriptionState,
    currentPeriodStart: String(item.currentPeriodStart),
    currentPeriodEnd: String(item.currentPeriodEnd),
    ...(str(item.scheduledPlan) ? { scheduledPlan: item.scheduledPlan as PlanId } : {}),
    priceCents: num(item.priceCents),
    updatedAt: String(item.updatedAt),
  };
}

/** A payment as the console lists it. */
export function paymentRecordOf(p: StoredPayment): PaymentRecord {
  return {
    id: p.paymentIntentId,
    kind: p.kind,
    description: p.description,
    amountCents: p.amountCents,
    refundedCents: p.refundedCents,
    status: p.status,
    credits: p.credits,
    creditsTakenBack: p.creditsTakenBack,
    creditsShortfall: p.creditsShortfall,
    at: p.at,
    ...(p.invoiceId ? { invoiceId: p.invoiceId } : {}),
    ...(p.receiptUrl ? { receiptUrl: p.receiptUrl } : {}),
  };
}

export type PaymentsStore = ReturnType<typeof paymentsStore>;

export function paymentsStore(doc: DynamoDBDocumentClient, tableName: string, now: () => Date = () => new Date()) {
  // Items are read whole (their keys name the payment or subscription they belong to).
  const items = tableItems(doc, tableName, { keyFields: [] });
  const get = (key: { pk: string; sk: string }) => items.get<Record<string, unknown>>(key);
  /** Puts `item` unless its key exists; true when written. */
  const putNew = items.putNew;

  /** An update its condition may refuse because it was applied already: true when it was written. */
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
    // ---- Customers ------------------------------------------------------------------------------

    /** The account's Stripe customer id, if it has one. */
    async customerOf(accountId: string): Promise<string | undefined> {
      return str((await get(paymentKeys.customerOfAccount(accountId)))?.customerId);
    },

    /** The account a Stripe customer belongs to, if it is ours and its client was not erased. */
    async accountOfCustomer(customerId: string): Promise<string | undefined> {
      const item = await get(paymentKeys.accountOfCustomer(customerId));
      return item?.erased === true ? undefined : str(item?.accountId);
    },

    /** A customer of ours as mapped, erased or not (an erased client's mapping stays, marked, to know its late events). */
    async customerRecord(customerId: string): Promise<{ accountId: string; erased: boolean } | undefined> {
      const item = await get(paymentKeys.accountOfCustomer(customerId));
      return str(item?.accountId) ? { accountId: String(item!.accountId), erased: item!.erased === true } : undefined;
    },

    /**
     * Marks the customer as an erased client's (erasure, before anything is changed at Stripe):
     * from then on its events are known as about an erased account and change nothing. The item
     * keeps only ids and times.
     */
    async markCustomerErased(customerId: string, accountId: string, at: Date): Promise<void> {
      await doc.send(
        new UpdateCommand({
          TableName: tableName,
          Key: paymentKeys.accountOfCustomer(customerId),
          UpdateExpression: 'SET erased = :t, erasedAt = if_not_exists(erasedAt, :at), customerId = :c, accountId = if_not_exists(accountId, :a)',
          ExpressionAttributeValues: { ':t': true, ':at': at.toISOString(), ':c': customerId, ':a': accountId },
        }),
      );
    },

    /** Deletes the account's side of the mapping (erasure, once its customer is deleted at Stripe). */
    async forgetCustomerOfAccount(accountId: string): Promise<void> {
      await doc.send(new DeleteCommand({ TableName: tableName, Key: paymentKeys.customerOfAccount(accountId) }));
    },

    /**
     * Records the account's customer both ways, each under attribute_not_exists; answers the
     * customer the account is mapped to (the existing one when another request won the race).
     * Tests write it ahead of a checkout to have the customer follow a test clock.
     */
    async linkCustomer(accountId: string, customerId: string): Promise<string> {
      const at = now().toISOString();
      const won = await putNew({ ...paymentKeys.customerOfAccount(accountId), accountId, customerId, at });
      const mapped = won ? customerId : ((await this.customerOf(accountId)) ?? customerId);
      await putNew({ ...paymentKeys.accountOfCustomer(mapped), accountId, customerId: mapped, at });
      return mapped;
    },

    // ---- Checkouts ------------------------------------------------------------------------------

    async putCheckout(checkout: Omit<CheckoutRecord, 'appliedAt'>): Promise<void> {
      await putNew({ ...paymentKeys.checkout(checkout.sessionId), ...checkout });
    },

    async getCheckout(sessionId: string): Promise<CheckoutRecord | undefined> {
      const item = await get(paymentKeys.checkout(sessionId));
      return item ? toCheckout(item) : undefined;
    },

    /** Marks the checkout applied (once: a later call keeps the first time). */
    async markCheckoutApplied(sessionId: string): Promise<void> {
      try {
        await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: paymentKeys.checkout(sessionId),
            UpdateExpression: 'SET appliedAt = if_not_exists(appliedAt, :at)',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':at': now().toISOString() },
          }),
        );
      } catch (err) {
        // A session we did not create (made in Stripe's dashboard): nothing to mark.
        if (!isConditionFailure(err)) throw err;
      }
    },

    // ---- Plan checkouts (one open per account) ----------------------------------------------------

    /**
     * Claims the account's plan checkout: written when none stands or the standing one lapsed, or,
     * with `replacing`, when the standing one still has that token. Answers undefined when won,
     * otherwise the claim that stands (with an empty token when it vanished meanwhile).
     */
    async claimPlanCheckout(claim: Omit<PlanCheckoutClaim, 'sessionId' | 'url'>, replacing?: string): Promise<PlanCheckoutClaim | undefined> {
      const key = paymentKeys.planCheckout(claim.accountId);
      try {
        await doc.send(
          new PutCommand({
            TableName: tableName,
            Item: { ...key, ...claim, claimedAt: now().toISOString() },
            ConditionExpression: replacing ? '#token = :old' : 'attribute_not_exists(pk) OR expiresAt <= :now',
            ...(replacing ? { ExpressionAttributeNames: { '#token': 'token' }, ExpressionAttributeValues: { ':old': replacing } } : { ExpressionAttributeValues: { ':now': now().toISOString() } }),
          }),
        );
        return undefined;
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
      }
      const item = await get(key);
      if (!item) return { accountId: claim.accountId, token: '', plan: claim.plan, expiresAt: claim.expiresAt };
      return {
        accountId: String(item.accountId),
        token: String(item.token),
        plan: item.plan as PlanId,
        expiresAt: String(item.expiresAt),
        ...(str(item.sessionId) ? { sessionId: String(item.sessionId) } : {}),
        ...(str(item.url) ? { url: String(item.url) } : {}),
      };
    },

    /** Fills in the claimed plan checkout's session; false when the claim is no longer this token's. */
    async openPlanCheckout(accountId: string, token: string, session: { sessionId: string; url: string; expiresAt: string }): Promise<boolean> {
      try {
        await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: paymentKeys.planCheckout(accountId),
            UpdateExpression: 'SET sessionId = :s, #url = :u, expiresAt = :e',
            ConditionExpression: '#token = :t',
            ExpressionAttributeNames: { '#token': 'token', '#url': 'url' },
            ExpressionAttributeValues: { ':s': session.sessionId, ':u': session.url, ':e': session.expiresAt, ':t': token },
          }),
        );
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    },

    /** Drops the claim if it is still this token's (its session could not be made). */
    async dropPlanCheckout(accountId: string, token: string): Promise<void> {
      try {
        await doc.send(
          new DeleteCommand({
            TableName: tableName,
            Key: paymentKeys.planCheckout(accountId),
            ConditionExpression: '#token = :t',
            ExpressionAttributeNames: { '#token': 'token' },
            ExpressionAttributeValues: { ':t': token },
          }),
        );
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
      }
    },

    // ---- Payments -------------------------------------------------------------------------------

    /**
     * Records a payment once, by its payment intent: on the account's list and the month's
     * revenue list. A repeat keeps the first record (refunds may have changed it since).
     */
    async recordPayment(payment: Omit<StoredPayment, 'refundedCents' | 'creditsTakenBack' | 'creditsShortfall' | 'status'> & Partial<Pick<StoredPayment, 'status'>>): Promise<boolean> {
      return putNew({
        ...paymentKeys.payment(payment.paymentIntentId),
        refundedCents: 0,
        creditsTakenBack: 0,
        creditsShortfall: 0,
        status: 'paid',
        ...payment,
        accountKey: paymentsOfAccount(payment.accountId),
        listKey: paymentsListOf(monthOf(payment.at)),
      });
    },

    async getPayment(paymentIntentId: string): Promise<StoredPayment | undefined> {
      const item = await get(paymentKeys.payment(paymentIntentId));
      return item ? toPayment(item) : undefined;
    },

    // ---- Refunds and disputes of a payment (refunds.ts): every write is conditional, so a
    // repeated or late event changes nothing.

    /** A payment with what refunds and disputes recorded on it (refunds, the console). */
    async chargedPayment(paymentIntentId: string): Promise<ChargedPayment | undefined> {
      const item = await get(paymentKeys.payment(paymentIntentId));
      return item ? toChargedPayment(item) : undefined;
    },

    /**
     * Raises the payment's refunded amount to what Stripe says now, with its status (never lowers
     * it: an older state read late changes nothing; a disputed payment keeps its dispute status).
     * True when it changed.
     */
    recordRefunded(paymentIntentId: string, refund: { refundedCents: number; chargeId: string; status: PaymentRecord['status'] }): Promise<boolean> {
      return updateOnce({
        Key: paymentKeys.payment(paymentIntentId),
        UpdateExpression: 'SET refundedCents = :r, chargeId = :c, #status = :s',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(refundedCents) OR refundedCents < :r)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':r': refund.refundedCents, ':c': refund.chargeId, ':s': refund.status },
      });
    },

    /** The payment's dispute as Stripe says now, and the status it gives the payment. */
    recordDispute(paymentIntentId: string, dispute: { disputeId: string; disputeStatus: string; status: PaymentRecord['status'] }): Promise<boolean> {
      return updateOnce({
        Key: paymentKeys.payment(paymentIntentId),
        UpdateExpression: 'SET disputeId = :d, disputeStatus = :ds, #status = :s',
        // A lost dispute is final: a late read of its open state never undoes it.
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(disputeStatus) OR disputeStatus <> :lost)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':d': dispute.disputeId, ':ds': dispute.disputeStatus, ':s': dispute.status, ':lost': 'lost' },
      });
    },

    /**
     * Holds the payment for one refund or dispute event while it computes and takes back credits
     * (what is still due depends on what earlier take-backs claimed). True when held; false while
     * another event holds it. A holder that crashed lets go when `until` passes.
     */
    hold(paymentIntentId: string, holder: string, until: Date): Promise<boolean> {
      return updateOnce({
        Key: paymentKeys.payment(paymentIntentId),
        UpdateExpression: 'SET heldBy = :h, heldUntil = :until',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(heldUntil) OR heldUntil < :now OR heldBy = :h)',
        ExpressionAttributeValues: { ':h': holder, ':until': until.toISOString(), ':now': now().toISOString() },
      });
    },

    /** Lets go of the payment (only the holder can). */
    async release(paymentIntentId: string, holder: string): Promise<void> {
      await updateOnce({
        Key: paymentKeys.payment(paymentIntentId),
        UpdateExpression: 'REMOVE heldBy, heldUntil',
        ConditionExpression: 'heldBy = :h',
        ExpressionAttributeValues: { ':h': holder },
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

    /** Who asked Stripe for a refund from the console, and why (appended once per Stripe refund). */
    recordRefundRequest(paymentIntentId: string, request: RefundRequestRecord): Promise<boolean> {
      return updateOnce({
        Key: paymentKeys.payment(paymentIntentId),
        UpdateExpression: 'SET refundRequests = list_append(if_not_exists(refundRequests, :empty), :one) ADD refundIds :id',
        ConditionExpression: 'attribute_exists(pk) AND NOT contains(refundIds, :refund)',
        ExpressionAttributeValues: { ':empty': [], ':one': [request], ':id': new Set([request.refundId]), ':refund': request.refundId },
      });
    },

    /** Changes a recorded payment's refund figures or status (refunds and disputes). */
    async updatePayment(
      paymentIntentId: string,
      changes: Partial<Pick<StoredPayment, 'refundedCents' | 'status' | 'creditsTakenBack' | 'creditsShortfall' | 'chargeId' | 'receiptUrl'>>,
    ): Promise<void> {
      const entries = Object.entries(changes).filter(([, v]) => v !== undefined);
      if (entries.length === 0) return;
      await doc.send(
        new UpdateCommand({
          TableName: tableName,
          Key: paymentKeys.payment(paymentIntentId),
          UpdateExpression: `SET ${entries.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: Object.fromEntries(entries.map(([k], i) => [`#f${i}`, k])),
          ExpressionAttributeValues: Object.fromEntries(entries.map(([, v], i) => [`:v${i}`, v])),
        }),
      );
    },

    /**
     * Takes what could identify the client off a payment (erasure): the receipt link (Stripe's
     * receipt page shows their email and card) and the reasons typed with refund requests. Amounts,
     * dates, credits, ids, refund and dispute figures stay for accounting and refunds. True when
     * it was not erased before.
     */
    async anonymisePayment(paymentIntentId: string, at: Date): Promise<boolean> {
      const item = await get(paymentKeys.payment(paymentIntentId));
      if (!item || str(item.erasedAt)) return false;
      const requests = Array.isArray(item.refundRequests) ? (item.refundRequests as Array<Record<string, unknown>>).map((r) => ({ ...r, reason: ERASED_REFUND_REASON })) : undefined;
      try {
        await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: paymentKeys.payment(paymentIntentId),
            UpdateExpression: `SET erasedAt = :at${requests ? ', refundRequests = :r' : ''} REMOVE receiptUrl`,
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(erasedAt)',
            ExpressionAttributeValues: { ':at': at.toISOString(), ...(requests ? { ':r': requests } : {}) },
          }),
        );
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    },

    /** The account's payments, newest first. */
    async paymentsOf(accountId: string): Promise<StoredPayment[]> {
      const items = await queryAll(doc, tableName, {
        IndexName: ACCOUNT_INDEX,
        KeyConditionExpression: 'accountKey = :k',
        ExpressionAttributeValues: { ':k': paymentsOfAccount(accountId) },
        ScanIndexForward: false,
      });
      return items.map(toPayment);
    },

    /** The payments of a calendar month (`YYYY-MM`, UTC), oldest first. */
    async paymentsInMonth(month: string): Promise<StoredPayment[]> {
      const items = await queryAll(doc, tableName, {
        IndexName: LIST_INDEX,
        KeyConditionExpression: 'listKey = :k',
        ExpressionAttributeValues: { ':k': paymentsListOf(month) },
      });
      return items.map(toPayment);
    },

    // ---- Subscriptions --------------------------------------------------------------------------

    async subscriptionOf(accountId: string): Promise<SubscriptionMirror | undefined> {
      const item = await get(paymentKeys.subscription(accountId));
      return item ? toSubscription(item) : undefined;
    },

    /**
     * Writes the account's subscription as Stripe says it is now. An ended subscription never
     * replaces the mirror of another, live one (an old subscription's late event after a new
     * checkout); answers false when it was left alone.
     */
    async putSubscription(mirror: Omit<SubscriptionMirror, 'updatedAt'>): Promise<boolean> {
      const item = { ...paymentKeys.subscription(mirror.accountId), ...mirror, updatedAt: now().toISOString(), listKey: SUBSCRIPTIONS_LIST, at: mirror.accountId };
      try {
        await doc.send(
          new PutCommand({
            TableName: tableName,
            Item: item,
            ...(mirror.state === 'ended'
              ? {
                  ConditionExpression: 'attribute_not_exists(pk) OR subscriptionId = :id OR #state = :ended',
                  ExpressionAttributeNames: { '#state': 'state' },
                  ExpressionAttributeValues: { ':id': mirror.subscriptionId, ':ended': 'ended' },
                }
              : {}),
          }),
        );
        return true;
      } catch (err) {
        if (isConditionFailure(err)) return false;
        throw err;
      }
    },

    /**
     * Ends the account's mirror of a subscription we canceled ourselves (by erasure, whose own
     * deletion event changes nothing, or as an account's second live subscription), so recurring
     * revenue stops counting it. The mirror of another subscription is left alone.
     */
    async endSubscriptionMirror(accountId: string, subscriptionId: string): Promise<void> {
      try {
        await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: paymentKeys.subscription(accountId),
            UpdateExpression: 'SET #status = :canceled, #state = :ended, updatedAt = :at REMOVE scheduledPlan',
            ConditionExpression: 'subscriptionId = :id',
            ExpressionAttributeNames: { '#status': 'status', '#state': 'state' },
            ExpressionAttributeValues: { ':canceled': 'canceled', ':ended': 'ended', ':at': now().toISOString(), ':id': subscriptionId },
          }),
        );
      } catch (err) {
        // No mirror, or the mirror of another subscription: nothing to end.
        if (!isConditionFailure(err)) throw err;
      }
    },

    /** Every account's subscription mirror (recurring revenue reads the live ones). */
    async subscriptions(): Promise<SubscriptionMirror[]> {
      const items = await queryAll(doc, tableName, {
        IndexName: LIST_INDEX,
        KeyConditionExpression: 'listKey = :k',
        ExpressionAttributeValues: { ':k': SUBSCRIPTIONS_LIST },
      });
      return items.map(toSubscription);
    },

    // ---- Erased clients' events -------------------------------------------------------------------

    /**
     * Records a Stripe event about an erased client that was applied to nothing (the first record
     * of a reference stays): ids, types and times only.
     */
    async recordErasedAccountEvent(event: ErasedAccountEvent): Promise<void> {
      const ref = event.eventId ?? `${event.object}:${event.objectId}`;
      await putNew({ ...paymentKeys.erasedAccountEvent(ref), ...event, at: now().toISOString(), listKey: ERASED_EVENTS_LIST });
    },

    // ---- Flags ----------------------------------------------------------------------------------

    /**
     * Flags an account that spent credits later refunded or disputed, adding `spentCredits` once
     * per `source` (the purchase's ledger source): a repeat of the same source changes nothing.
     */
    async flagAccount(accountId: string, flag: { source: string; spentCredits: number; reason: string }): Promise<void> {
      const at = now().toISOString();
      try {
        await doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: paymentKeys.flag(accountId),
            UpdateExpression: 'SET accountId = :a, listKey = :l, #at = if_not_exists(#at, :at), reason = :r, updatedAt = :at ADD spentCredits :n, sources :s',
            ConditionExpression: 'attribute_not_exists(sources) OR NOT contains(sources, :source)',
            ExpressionAttributeNames: { '#at': 'at' },
            ExpressionAttributeValues: { ':a': accountId, ':l': FLAGGED_LIST, ':at': at, ':r': flag.reason, ':n': flag.spentCredits, ':s': new Set([flag.source]), ':source': flag.source },
          }),
        );
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
      }
    },

    /** Credits the account spent before they were refunded or disputed (0 when not flagged). */
    async flagOf(accountId: string): Promise<number> {
      return num((await get(paymentKeys.flag(accountId)))?.spentCredits);
    },

    /** Every flagged account. */
    async flaggedAccounts(): Promise<{ accountId: string; spentCredits: number }[]> {
      const items = await queryAll(doc, tableName, {
        IndexName: LIST_INDEX,
        KeyConditionExpression: 'listKey = :k',
        ExpressionAttributeValues: { ':k': FLAGGED_LIST },
      });
      return items.map((i) => ({ accountId: String(i.accountId), spentCredits: num(i.spentCredits) }));
    },
  };
}
