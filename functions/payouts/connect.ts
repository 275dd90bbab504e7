// The talent's connected account at Stripe (decision 044): created once with controller
// properties, onboarded through Stripe's hosted page, and its state as Stripe reports it.
import type Stripe from 'stripe';
import type { ConnectAccountStatus } from '../../events/payouts';

/** The connected account's state in our words, from Stripe's account object. */
export function connectStatusOf(account: Stripe.Account): ConnectAccountStatus {
  const transfers = account.capabilities?.transfers;
  const payoutsEnabled = account.payouts_enabled === true && transfers === 'active';
  const disabledReason = account.requirements?.disabled_reason ?? undefined;
  const bank = account.external_accounts?.data?.[0] as { last4?: string } | undefined;
  const state: ConnectAccountStatus['state'] = payoutsEnabled ? 'active' : account.details_submitted && disabledReason ? 'restricted' : 'onboarding';
  return {
    state,
    requirementsDue: [...(account.requirements?.currently_due ?? [])],
    ...(disabledReason && state !== 'active' ? { disabledReason } : {}),
    ...(bank?.last4 ? { bankLast4: bank.last4 } : {}),
    payoutsEnabled,
  };
}

export const NOT_STARTED: ConnectAccountStatus = { state: 'not-started', requirementsDue: [], payoutsEnabled: false };

/** Creates the talent's connected account; the idempotency key makes a repeat answer the same account. */
export function createConnectedAccount(stripe: Stripe, input: { talentId: string; email: string }): Promise<Stripe.Account> {
  return stripe.accounts.create(
    {
      controller: {
        stripe_dashboard: { type: 'express' },
        fees: { payer: 'application' },
        losses: { payments: 'application' },
        requirement_collection: 'stripe',
      },
      capabilities: { transfers: { requested: true } },
      business_type: 'individual',
      email: input.email,
      metadata: { talentId: input.talentId },
    },
    { idempotencyKey: `connect-account:${input.talentId}` },
  );
}

/** Stripe's hosted onboarding for the account: back to the talent portal either way. */
export function onboardingLink(stripe: Stripe, accountId: string, siteUrl: string): Promise<Stripe.AccountLink> {
  const portal = `${siteUrl.replace(/\/+$/, '')}/talent-portal`;
  return stripe.accountLinks.create({
    account: accountId,
    type: 'account_onboarding',
    refresh_url: `${portal}?payouts=refresh`,
    return_url: `${portal}?payouts=return`,
    collection_options: { fields: 'eventually_due' },
  });
}

/** What a bank payout's failure code means for the talent, in words they can act on. */
export function bankFailureWords(code: string | null | undefined): string {
  switch (code) {
    case 'no_account':
      return 'Your bank says the account number does not exist: check it and update your bank account in your payout setup.';
    case 'account_closed':
      return 'Your bank says the account is closed: add an open bank account in your payout setup.';
    case 'invalid_account_number':
      return 'The bank account number is not valid: correct it in your payout setup.';
    case 'account_frozen':
      return 'Your bank account is frozen: contact your bank, or add another account in your payout setup.';
    default:
      return `Your bank refused the payout (${code ?? 'no reason given'}): check your bank account in your payout setup, or contact your bank.`;
  }
}

/** A refused transfer in words, and whether it is the talent's to fix (they are emailed) or ours. */
export function transferFailureOf(err: { code?: string; message?: string }): { failure: string; talentToFix: boolean } {
  switch (err.code) {
    case 'balance_insufficient':
      return { failure: "The platform's Stripe balance could not cover this transfer: add funds to the balance, then retry.", talentToFix: false };
    case 'insufficient_capabilities_for_transfer':
      return { failure: 'Your payout account cannot receive transfers yet: finish what Stripe still asks for in your payout setup.', talentToFix: true };
    case 'account_invalid':
      return { failure: 'Your payout account can no longer receive transfers: open your payout setup to see what Stripe needs.', talentToFix: true };
    default:
      return { failure: `Stripe refused the transfer (${err.code ?? 'no code'}): ${err.message ?? 'no message'}`, talentToFix: false };
  }
}
