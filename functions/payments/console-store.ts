// What refunds, disputes and the console write in the Payments table beyond the payments store
// (store.ts): a payment's refunded amount and dispute as Stripe last said, the credits taken back
// (once per ledger key), and who asked for a refund from the console. Keys from keys.ts; every
// write is conditional, so a repeated or late event changes nothing.
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { PaymentRecord } from '../../events/payments';
import { isConditionFailure } from '../shared/errors';
import { paymentKeys } from './keys';
import type { StoredPayment } from './store';

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

const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/** A stored payment item with every field refunds read. */
function toChargedPayment(item: Record<string, unknown>): ChargedPayment {
  const optional = (['invoiceId', 'checkoutId', 'subscriptionId', 'chargeId', 'receiptUrl', 'disputeId', 'disputeStatus', 'erasedAt'] as const).filter((f) => str(item[f]));
  return {
    paymentIntentId: str(item.paymentIntentId) ?? String(item.pk ?? '').replace(/^PAYMENT#/, ''),
    accountId: String(item.accountId ?? ''),
    kind: item.kind === 'subscription' ? 'subscription' : 'credits',
    description: String(item.description ?? ''),
    amountCents: num(item.amountCents),
    refundedCents: num(item.refundedCents),
    status: (str(item.status) ?? 'paid') as PaymentRecord['status'],
    credits: num(item.credits),
    creditsTakenBack: num(item.creditsTakenBack),
    creditsShortfall: num(item.creditsShortfall),
    creditsClaimed: num(item.creditsClaimed),
    at: String(item.at ?? ''),
    source: String(item.source ?? item.grantKey ?? ''),
    grantKey: String(item.grantKey ?? item.source ?? ''),
    ...Object.fromEntries(optional.map((f) => [f, item[f]])),
    refundRequests: Array.isArray(item.refundRequests) ? (item.refundRequests as RefundRequestRecord[]) : [],
  };
}

export type ConsoleStore = ReturnType<typeof consoleStore>;

export function consoleStore(doc: DynamoDBDocumentClient, tableName: string) {
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
    async payment(paymentIntentId: string): Promise<ChargedPayment | undefined> {
      const out = await doc.send(new GetCommand({ TableName: tableName, Key: paymentKeys.payment(paymentIntentId), ConsistentRead: true }));
      return out.Item ? toChargedPayment(out.Item) : undefined;
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
        ExpressionAttributeValues: { ':h': holder, ':until': until.toISOString(), ':now': new Date().toISOString() },
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
  };
}
