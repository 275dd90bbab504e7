// Connect's connected accounts in the Stripe emulator: made with controller properties (or a
// legacy type), their capabilities, and their bank accounts. Onboarding is onboarding.ts;
// balances, transfers and payouts are payouts.ts. Events that happen on a connected account
// carry its id (`account`) and go to Connect endpoints only.
import type Stripe from 'stripe';
import { type Api, found, newest, page } from './api';
import { invalid, mergeMetadata, missing, type Reader, StripeApiError } from './form';
import * as o from './objects';
import { changedFields, type Store } from './store';

/** What the emulator's onboarding page collects, as Stripe names the requirements. */
export const ONBOARDING_REQUIREMENTS = [
  'external_account',
  'individual.dob.day',
  'individual.dob.month',
  'individual.dob.year',
  'individual.first_name',
  'individual.last_name',
  'individual.ssn_last_4',
  'tos_acceptance.date',
  'tos_acceptance.ip',
] as const;

/** Test bank account numbers (routing 110000000): payouts to these fail with Stripe's failure code; any other number is paid. */
export const FAILING_BANK_ACCOUNTS: Record<string, { code: string; message: string }> = {
  '000111111116': { code: 'no_account', message: 'The bank account details on file are probably incorrect. No bank account could be located with those details.' },
  '000111111113': { code: 'account_closed', message: 'The bank account has been closed.' },
};

/** The onboarding page's test values, for its banner and the docs. */
export const ONBOARDING_TEST_VALUES = {
  ssnLast4: '0000',
  routingNumber: '110000000',
  accountNumber: '000123456789',
  failingAccountNumbers: Object.keys(FAILING_BANK_ACCOUNTS),
};

const CAPABILITIES = ['transfers', 'card_payments'] as const;
export type CapabilityName = (typeof CAPABILITIES)[number];

/** What a talent typed on the onboarding page (the emulator's own record; Stripe keeps these from the platform). */
export interface Identity {
  firstName?: string;
  lastName?: string;
  dob?: string;
  ssnLast4?: string;
}

export type OnboardingField = 'first_name' | 'last_name' | 'dob' | 'ssn_last_4' | 'routing_number' | 'account_number';

export interface OnboardingView {
  account: Stripe.Account;
  identity: Identity;
  bankLast4: string | null;
}

/** `controller[...]` of a new account, or the one of its legacy `type`, and the type it answers. */
function readController(r: Reader): { controller: Stripe.Account.Controller; type: Stripe.Account.Type } {
  const type = r.oneOf('type', ['express', 'standard', 'custom'] as const);
  const c = r.hash('controller');
  if (type && c) throw invalid('You cannot provide both `type` and `controller`: controller properties replace the account type.', 'controller');
  const fees = c?.hash('fees');
  const payer = fees?.oneOf('payer', ['account', 'application'] as const);
  fees?.done();
  const losses = c?.hash('losses');
  const lossPayer = losses?.oneOf('payments', ['application', 'stripe'] as const);
  losses?.done();
  const collection = c?.oneOf('requirement_collection', ['application', 'stripe'] as const);
  const dashboard = c?.hash('stripe_dashboard');
  const dashboardType = dashboard?.oneOf('type', ['express', 'full', 'none'] as const);
  dashboard?.done();
  c?.done();
  const controller: Stripe.Account.Controller =
    type === 'express'
      ? { fees: { payer: 'application_express' }, is_controller: true, losses: { payments: 'application' }, requirement_collection: 'stripe', stripe_dashboard: { type: 'express' }, type: 'application' }
      : type === 'custom'
        ? { fees: { payer: 'application_custom' }, is_controller: true, losses: { payments: 'application' }, requirement_collection: 'application', stripe_dashboard: { type: 'none' }, type: 'application' }
        : {
            fees: { payer: payer ?? 'account' },
            is_controller: true,
            losses: { payments: lossPayer ?? 'stripe' },
            requirement_collection: collection ?? 'stripe',
            stripe_dashboard: { type: dashboardType ?? 'full' },
            type: 'application',
          };
  // An account whose controller matches a legacy type answers that type, as on Stripe.
  const { stripe_dashboard: board, requirement_collection: collects, losses: loss, fees: fee } = controller;
  const legacyType: Stripe.Account.Type =
    type ??
    (board?.type === 'express' && collects === 'stripe' && loss?.payments === 'application' && fee?.payer === 'application'
      ? 'express'
      : board?.type === 'full' && collects === 'stripe' && loss?.payments === 'stripe' && fee?.payer === 'account'
        ? 'standard'
        : board?.type === 'none' && collects === 'application'
          ? 'custom'
          : 'none');
  if (board?.type === 'express' && loss?.payments !== 'application') {
    throw invalid('An account with the Express dashboard needs `controller[losses][payments]=application`.', 'controller[losses][payments]');
  }
  return { controller, type: legacyType };
}

/** `capabilities[<name>][requested]`, each applied in turn (only capabilities the emulator serves); false when none is given. */
function readCapabilities(r: Reader, apply: (name: CapabilityName, requested: boolean | undefined) => void): boolean {
  const caps = r.hash('capabilities');
  if (!caps) return false;
  for (const name of Object.keys(caps.params)) {
    if (!(CAPABILITIES as readonly string[]).includes(name)) {
      throw invalid(`The emulator serves the ${CAPABILITIES.join(' and ')} capabilities, not ${name}.`, `capabilities[${name}]`);
    }
    const cap = caps.hash(name)!;
    const requested = cap.boolean('requested');
    cap.done();
    apply(name as CapabilityName, requested);
  }
  caps.done();
  return true;
}

export class Accounts {
  readonly accounts = new Map<string, Stripe.Account>();
  readonly identities = new Map<string, Identity>();
  /** Each bank account's full number (the API shows only its last four digits). */
  readonly bankNumbers = new Map<string, string>();
  /** Called with the id of each deleted account (its account links go with it). */
  onDelete: (id: string) => void = () => undefined;

  constructor(private readonly s: Store) {}

  /** `account.updated` with Stripe's `previous_attributes`, when something changed. */
  emitAccountUpdated(acct: Stripe.Account, before: Stripe.Account): void {
    const previous = changedFields(before, acct);
    if (previous) this.s.emitConnected('account.updated', acct, acct.id, previous);
  }

  account(id: string, param = 'account'): Stripe.Account {
    const a = this.accounts.get(id);
    if (!a) throw missing('account', id, param);
    return a;
  }

  createAccount(r: Reader): Stripe.Account {
    const { controller, type } = readController(r);
    const capabilities: Stripe.Account.Capabilities = {};
    readCapabilities(r, (name, requested) => {
      if (requested) capabilities[name] = 'inactive';
    });
    const businessType = r.oneOf('business_type', ['individual', 'company', 'non_profit', 'government_entity'] as const) ?? null;
    const email = r.string('email', { max: 800 }) || null;
    const country = r.string('country');
    if (country !== undefined && country.toUpperCase() !== 'US') throw invalid(`The emulator's connected accounts are in the US only, not ${country}.`, 'country');
    const currency = r.string('default_currency');
    if (currency !== undefined && currency.toLowerCase() !== 'usd') throw invalid(`The emulator's connected accounts hold usd only, not ${currency}.`, 'default_currency');
    const metadata = r.metadata() ?? {};
    r.done();
    const acct = o.connectedAccount({
      id: o.newId('acct', 16),
      email,
      businessType,
      controller,
      type,
      capabilities,
      due: [...ONBOARDING_REQUIREMENTS],
      metadata,
      created: this.s.clocks.now(null),
    });
    this.accounts.set(acct.id, acct);
    this.identities.set(acct.id, {});
    this.s.log(`${acct.id}: connected account created (${type})`);
    return acct;
  }

  updateAccount(id: string, r: Reader): Stripe.Account {
    const acct = this.account(id, 'id');
    const before = structuredClone(acct);
    const email = r.string('email', { max: 800 });
    if (email !== undefined) acct.email = email || null;
    acct.metadata = mergeMetadata(acct.metadata ?? {}, r.metadata());
    const given = readCapabilities(r, (name, requested) => {
      const list = (acct.capabilities ??= {});
      if (requested === false) delete list[name];
      else if (requested && !list[name]) list[name] = acct.details_submitted && !acct.requirements?.currently_due?.length ? 'active' : 'inactive';
    });
    if (given) acct.charges_enabled = acct.capabilities?.card_payments === 'active';
    r.done();
    this.emitAccountUpdated(acct, before);
    return acct;
  }

  deleteAccount(id: string): Stripe.DeletedAccount {
    this.account(id, 'id');
    this.accounts.delete(id);
    this.onDelete(id);
    return { id, object: 'account', deleted: true };
  }

  externalAccounts(accountId: string): Stripe.BankAccount[] {
    return (this.account(accountId, 'account').external_accounts?.data ?? []) as Stripe.BankAccount[];
  }

  /** Throws Stripe's error for a `Stripe-Account` header naming an account the platform does not have. */
  requireConnected(accountId: string, key: string): void {
    if (!this.accounts.has(accountId)) {
      throw new StripeApiError(
        403,
        'invalid_request_error',
        `The provided key '${key}' does not have access to account '${accountId}' (or that account does not exist). Application access may have been revoked.`,
        { code: 'account_invalid' },
      );
    }
  }

  routes(api: Api): void {
    api.on('POST', '/v1/accounts', (r) => this.createAccount(r));
    api.on('GET', '/v1/accounts', (r) => page(newest(this.accounts.values()), r, '/v1/accounts', 'account'));
    api.on('GET', '/v1/accounts/:id', (_r, [id]) => this.account(id, 'id'));
    api.on('POST', '/v1/accounts/:id', (r, [id]) => this.updateAccount(id, r));
    api.on('DELETE', '/v1/accounts/:id', (_r, [id]) => this.deleteAccount(id));
    api.on('GET', '/v1/accounts/:id/external_accounts', (r, [id]) => {
      r.oneOf('object', ['bank_account', 'card'] as const);
      return page(this.externalAccounts(id), r, `/v1/accounts/${id}/external_accounts`, 'external_account');
    });
    api.on('GET', '/v1/accounts/:id/external_accounts/:ba', (_r, [id, ba]) => found(this.externalAccounts(id).find((x) => x.id === ba), 'external_account', ba));
  }
}
