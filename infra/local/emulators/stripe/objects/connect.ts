// Connect: connected accounts, their bank accounts, account links, transfers, payouts and balances.
import type Stripe from 'stripe';
import { list, newId } from './common';

/** A requirements hash with these fields due (all of them past due: a new account is disabled until they are given). */
export function requirements(due: string[]): Stripe.Account.Requirements {
  return {
    alternatives: [],
    current_deadline: null,
    currently_due: [...due],
    disabled_reason: due.length ? 'requirements.past_due' : null,
    errors: [],
    eventually_due: [...due],
    past_due: [...due],
    pending_verification: [],
  };
}

export function connectedAccount(a: {
  id: string;
  email: string | null;
  businessType: Stripe.Account.BusinessType | null;
  controller: Stripe.Account.Controller;
  type: Stripe.Account.Type;
  capabilities: Stripe.Account.Capabilities;
  due: string[];
  metadata: Stripe.Metadata;
  created: number;
}): Stripe.Account {
  return {
    id: a.id,
    object: 'account',
    business_profile: {
      mcc: null,
      minority_owned_business_designation: null,
      name: null,
      product_description: null,
      specified_commercial_transactions_act_url: null,
      support_address: null,
      support_email: null,
      support_phone: null,
      support_url: null,
      url: null,
    },
    business_type: a.businessType,
    capabilities: a.capabilities,
    charges_enabled: false,
    controller: a.controller,
    country: 'US',
    created: a.created,
    default_currency: 'usd',
    details_submitted: false,
    email: a.email,
    external_accounts: list(`/v1/accounts/${a.id}/external_accounts`, []),
    future_requirements: requirements([]),
    metadata: a.metadata,
    payouts_enabled: false,
    requirements: requirements(a.due),
    tos_acceptance: { date: null, ip: null, user_agent: null },
    type: a.type,
  };
}

/**
 * The account's individual as a platform reads it for an account where Stripe collects the
 * requirements: the subset Stripe shows after onboarding started (the name, and whether Stripe
 * verified the person), never the date of birth or the tax number.
 */
export function individual(p: { id: string; account: string; created: number; firstName: string | null; lastName: string | null; verified: boolean }): Stripe.Person {
  return {
    id: p.id,
    object: 'person',
    account: p.account,
    created: p.created,
    first_name: p.firstName,
    last_name: p.lastName,
    verification: { status: p.verified ? 'verified' : 'unverified', details: null, details_code: null },
  };
}

export function bankAccount(b: { id: string; account: string; holderName: string; routingNumber: string; accountNumber: string; fingerprint: string }): Stripe.BankAccount {
  return {
    id: b.id,
    object: 'bank_account',
    account: b.account,
    account_holder_name: b.holderName,
    account_holder_type: 'individual',
    account_type: null,
    available_payout_methods: ['standard'],
    bank_name: 'STRIPE TEST BANK',
    country: 'US',
    currency: 'usd',
    default_for_currency: true,
    fingerprint: b.fingerprint,
    last4: b.accountNumber.slice(-4),
    metadata: {},
    routing_number: b.routingNumber,
    status: 'new',
  };
}

export function accountLink(l: { url: string; created: number; expiresAt: number }): Stripe.AccountLink {
  return { object: 'account_link', created: l.created, expires_at: l.expiresAt, url: l.url };
}

export function transfer(t: {
  id: string;
  amount: number;
  currency: string;
  destination: string;
  destinationPayment: string;
  transferGroup: string | null;
  description: string | null;
  metadata: Stripe.Metadata;
  created: number;
}): Stripe.Transfer {
  return {
    id: t.id,
    object: 'transfer',
    amount: t.amount,
    amount_reversed: 0,
    balance_transaction: newId('txn'),
    created: t.created,
    currency: t.currency,
    description: t.description,
    destination: t.destination,
    destination_payment: t.destinationPayment,
    livemode: false,
    metadata: t.metadata,
    reversals: list(`/v1/transfers/${t.id}/reversals`, []),
    reversed: false,
    source_transaction: null,
    source_type: 'card',
    transfer_group: t.transferGroup,
  };
}

export function transferReversal(r: { id: string; amount: number; currency: string; transfer: string; metadata: Stripe.Metadata; created: number }): Stripe.TransferReversal {
  return {
    id: r.id,
    object: 'transfer_reversal',
    amount: r.amount,
    balance_transaction: newId('txn'),
    created: r.created,
    currency: r.currency,
    destination_payment_refund: newId('pyr'),
    metadata: r.metadata,
    source_refund: null,
    transfer: r.transfer,
  };
}

/** An automatic payout of a connected account's balance to its bank account. */
export function payout(p: { id: string; amount: number; currency: string; destination: string; created: number; arrivalDate: number }): Stripe.Payout {
  return {
    id: p.id,
    object: 'payout',
    amount: p.amount,
    application_fee: null,
    application_fee_amount: null,
    arrival_date: p.arrivalDate,
    automatic: true,
    balance_transaction: newId('txn'),
    created: p.created,
    currency: p.currency,
    description: 'STRIPE PAYOUT',
    destination: p.destination,
    failure_balance_transaction: null,
    failure_code: null,
    failure_message: null,
    livemode: false,
    metadata: {},
    method: 'standard',
    original_payout: null,
    payout_method: null,
    reconciliation_status: 'not_applicable',
    reversed_by: null,
    source_type: 'card',
    statement_descriptor: null,
    status: 'pending',
    trace_id: null,
    type: 'bank_account',
  };
}

/** A balance in one currency, all of it from card payments (the emulator's only source). */
export function balance(available: number, pending = 0, currency = 'usd'): Stripe.Balance {
  return {
    object: 'balance',
    available: [{ amount: available, currency, source_types: { card: available } }],
    connect_reserved: [{ amount: 0, currency }],
    livemode: false,
    pending: [{ amount: pending, currency, source_types: { card: pending } }],
  };
}
