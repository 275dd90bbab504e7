// Refunds and disputes (issue 23): being built. The webhook route hands every `charge.refunded`
// and `charge.dispute.*` event here.
import type Stripe from 'stripe';

export interface ChargeEventDeps {
  stripe: Stripe;
}

/** Applies a refund or dispute event: takes back the purchase's unspent credits. */
export async function applyChargeEvent(_deps: ChargeEventDeps, event: Stripe.Event): Promise<void> {
  throw new Error(`refunds and disputes are not applied yet (${event.type})`);
}
