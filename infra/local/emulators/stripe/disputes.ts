// Disputes in the Stripe emulator: opened on a charge as a cardholder's bank would (a test
// card's, or the twin's `openDispute`), answered with evidence that wins or loses them as in
// Stripe's test mode, or accepted.
import type Stripe from 'stripe';
import { type Api, newest, page } from './api';
import { days } from './clock';
import { invalid, mergeMetadata, missing, type Reader } from './form';
import * as o from './objects';
import type { Store } from './store';

const DISPUTE_RESPONSE_DAYS = 7;

export class Disputes {
  constructor(private readonly s: Store) {}

  /** Opens a dispute on a charge, as a cardholder's bank does (`charge.dispute.created`). */
  openDispute(chargeId: string, reason = 'fraudulent'): Stripe.Dispute {
    const ch = this.s.charge(chargeId);
    if (ch.status !== 'succeeded') throw invalid(`Charge ${ch.id} did not succeed; there is nothing to dispute.`, 'charge');
    if (ch.disputed) throw invalid(`Charge ${ch.id} is already disputed.`, 'charge');
    const clock = this.s.clockOfCustomer(ch.customer as string | null);
    const now = this.s.clocks.now(clock);
    const dp = o.dispute({ id: o.newId('du'), charge: ch, reason, created: now, dueBy: now + days(DISPUTE_RESPONSE_DAYS) });
    this.s.disputes.set(dp.id, dp);
    ch.disputed = true;
    this.s.emit('charge.dispute.created', dp, clock);
    this.s.emit('charge.dispute.funds_withdrawn', dp, clock);
    return dp;
  }

  dispute(id: string): Stripe.Dispute {
    const dp = this.s.disputes.get(id);
    if (!dp) throw missing('dispute', id, 'dispute');
    return dp;
  }

  /** `POST /v1/disputes/:id/close`: we accept the dispute; it is lost. */
  closeDispute(id: string): Stripe.Dispute {
    const dp = this.dispute(id);
    if (!['needs_response', 'warning_needs_response', 'under_review', 'warning_under_review'].includes(dp.status)) {
      throw invalid(`This dispute is already closed (${dp.status}).`, undefined, 'dispute_already_closed' as string);
    }
    this.settleDispute(dp, 'lost');
    return dp;
  }

  /**
   * `POST /v1/disputes/:id` with evidence: in test mode, `evidence[uncategorized_text]` of
   * `winning_evidence` wins the dispute and `losing_evidence` loses it, as on Stripe.
   */
  updateDispute(id: string, r: Reader): Stripe.Dispute {
    const dp = this.dispute(id);
    const evidence = r.hash('evidence');
    const text = evidence?.string('uncategorized_text', { max: 20_000 });
    evidence?.done();
    dp.metadata = mergeMetadata(dp.metadata, r.metadata());
    const submit = r.boolean('submit') ?? true;
    r.done();
    if (text !== undefined) {
      dp.evidence.uncategorized_text = text;
      dp.evidence_details.has_evidence = true;
    }
    const clock = this.clockOf(dp);
    if (submit && dp.status === 'needs_response' && text !== undefined) {
      dp.evidence_details.submission_count += 1;
      dp.status = 'under_review';
      this.s.emit('charge.dispute.updated', dp, clock);
      if (text === 'winning_evidence') this.settleDispute(dp, 'won');
      else if (text === 'losing_evidence') this.settleDispute(dp, 'lost');
    } else this.s.emit('charge.dispute.updated', dp, clock);
    return dp;
  }

  private clockOf(dp: Stripe.Dispute): string | null {
    return this.s.clockOfCustomer(this.s.charge(dp.charge as string).customer as string | null);
  }

  private settleDispute(dp: Stripe.Dispute, outcome: 'won' | 'lost'): void {
    const clock = this.clockOf(dp);
    dp.status = outcome;
    this.s.emit('charge.dispute.closed', dp, clock);
    if (outcome === 'won') this.s.emit('charge.dispute.funds_reinstated', dp, clock);
  }

  routes(api: Api): void {
    api.on('GET', '/v1/disputes', (r) => {
      const charge = r.string('charge');
      const pi = r.string('payment_intent');
      return page(newest(this.s.disputes.values()).filter((x) => (!charge || x.charge === charge) && (!pi || x.payment_intent === pi)), r, '/v1/disputes', 'dispute');
    });
    api.on('GET', '/v1/disputes/:id', (_r, [id]) => this.dispute(id));
    api.on('POST', '/v1/disputes/:id', (r, [id]) => this.updateDispute(id, r));
    api.on('POST', '/v1/disputes/:id/close', (_r, [id]) => this.closeDispute(id));
  }
}
