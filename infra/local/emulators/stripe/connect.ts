// Connect in the Stripe emulator: connected accounts made with controller properties, their
// hosted onboarding through account links, their bank accounts, transfers from the platform's
// balance and the automatic payouts that follow each transfer. Events that happen on a connected
// account carry its id (`account`) and go to Connect endpoints only; a transfer's events are the
// platform's own.
import { createHash } from 'node:crypto';
import type Stripe from 'stripe';
import { days } from './clock';
import type { Engine } from './engine';
import { executed, invalid, mergeMetadata, missing, StripeApiError, type Reader } from './form';
import * as o from './objects';
import type { Webhooks } from './webhooks';

/** What the emulator's onboarding page collects, as Stripe names the requirements. */
const ONBOARDING_REQUIREMENTS = [
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
const FAILING_BANK_ACCOUNTS: Record<string, { code: string; message: string }> = {
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

/** The platform's available balance when the emulator starts: $1,000,000, as a test account can be topped up to. */
const PLATFORM_BALANCE_CENTS = 100_000_000;

/** Stripe's account links expire a few minutes after they are made. */
const LINK_LIFETIME_SECONDS = 300;
/** A payout's expected arrival: the next business day or two (the emulator says two days). */
const PAYOUT_ARRIVAL_DAYS = 2;

const CAPABILITIES = ['transfers', 'card_payments'] as const;
type CapabilityName = (typeof CAPABILITIES)[number];

interface LinkState {
  token: string;
  account: string;
  type: 'account_onboarding' | 'account_update';
  refreshUrl: string;
  returnUrl: string;
  expiresAt: number;
  used: boolean;
}

/** What a talent typed on the onboarding page (the emulator's own record; Stripe keeps these from the platform). */
interface Identity {
  firstName?: string;
  lastName?: string;
  dob?: string;
  ssnLast4?: string;
}

export type OnboardingField = 'first_name' | 'last_name' | 'dob' | 'ssn_last_4' | 'routing_number' | 'account_number';

export type OnboardingAnswer =
  | { kind: 'redirect'; to: string }
  | { kind: 'invalid'; errors: Partial<Record<OnboardingField, string>> };

export interface OnboardingView {
  account: Stripe.Account;
  identity: Identity;
  bankLast4: string | null;
}

export class Connect {
  readonly accounts = new Map<string, Stripe.Account>();
  readonly transfers = new Map<string, Stripe.Transfer>();
  readonly payouts = new Map<string, Stripe.Payout>();
  private readonly links = new Map<string, LinkState>();
  private readonly identities = new Map<string, Identity>();
  /** Each bank account's full number (the API shows only its last four digits). */
  private readonly bankNumbers = new Map<string, string>();
  private readonly payoutAccount = new Map<string, string>();
  private readonly connectedBalance = new Map<string, number>();
  private platformBalance = PLATFORM_BALANCE_CENTS;
  private stopped = false;

  constructor(
    private readonly engine: Engine,
    private readonly webhooks: Webhooks,
    private readonly endpoint: () => string,
    private readonly log: (line: string) => void,
  ) {}

  stop(): void {
    this.stopped = true;
  }

  private now(): number {
    return this.engine.clocks.now(null);
  }

  /** An event on a connected account (`account` set: Connect endpoints) or on the platform (`account` undefined). */
  private emit(type: Stripe.Event.Type, object: { id: string; object: string }, account: string | undefined, previous?: Record<string, unknown>): void {
    const request = this.engine.request;
    this.webhooks.emit(type, object, {
      created: this.now(),
      previous,
      account,
      request: request ? { id: request.id, idempotencyKey: request.idempotencyKey } : { id: null, idempotencyKey: null },
    });
  }

  /** `account.updated` with Stripe's `previous_attributes`, when something changed. */
  private emitAccountUpdated(acct: Stripe.Account, before: Stripe.Account): void {
    const previous: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(before)) {
      if (JSON.stringify(v) !== JSON.stringify((acct as unknown as Record<string, unknown>)[k])) previous[k] = v;
    }
    if (Object.keys(previous).length > 0) this.emit('account.updated', acct, acct.id, previous);
  }

  account(id: string, param = 'account'): Stripe.Account {
    const a = this.accounts.get(id);
    if (!a) throw missing('account', id, param);
    return a;
  }

  // --- accounts ---

  createAccount(r: Reader): Stripe.Account {
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
    const capabilities: Stripe.Account.Capabilities = {};
    const caps = r.hash('capabilities');
    if (caps) {
      for (const name of Object.keys(caps.params)) {
        if (!(CAPABILITIES as readonly string[]).includes(name)) {
          throw invalid(`The emulator serves the ${CAPABILITIES.join(' and ')} capabilities, not ${name}.`, `capabilities[${name}]`);
        }
        const cap = caps.hash(name)!;
        const requested = cap.boolean('requested');
        cap.done();
        if (requested) capabilities[name as CapabilityName] = 'inactive';
      }
      caps.done();
    }
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
      type: legacyType,
      capabilities,
      due: [...ONBOARDING_REQUIREMENTS],
      metadata,
      created: this.now(),
    });
    this.accounts.set(acct.id, acct);
    this.connectedBalance.set(acct.id, 0);
    this.identities.set(acct.id, {});
    this.log(`${acct.id}: connected account created (${legacyType})`);
    return acct;
  }

  updateAccount(id: string, r: Reader): Stripe.Account {
    const acct = this.account(id, 'id');
    const before = structuredClone(acct);
    const email = r.string('email', { max: 800 });
    if (email !== undefined) acct.email = email || null;
    acct.metadata = mergeMetadata(acct.metadata ?? {}, r.metadata());
    const caps = r.hash('capabilities');
    if (caps) {
      for (const name of Object.keys(caps.params)) {
        if (!(CAPABILITIES as readonly string[]).includes(name)) {
          throw invalid(`The emulator serves the ${CAPABILITIES.join(' and ')} capabilities, not ${name}.`, `capabilities[${name}]`);
        }
        const cap = caps.hash(name)!;
        const requested = cap.boolean('requested');
        cap.done();
        const list = (acct.capabilities ??= {});
        if (requested === false) delete list[name as CapabilityName];
        else if (requested && !list[name as CapabilityName]) list[name as CapabilityName] = acct.details_submitted && !acct.requirements?.currently_due?.length ? 'active' : 'inactive';
      }
      caps.done();
      acct.charges_enabled = acct.capabilities?.card_payments === 'active';
    }
    r.done();
    this.emitAccountUpdated(acct, before);
    return acct;
  }

  deleteAccount(id: string): Stripe.DeletedAccount {
    this.account(id, 'id');
    this.accounts.delete(id);
    for (const [token, link] of this.links) if (link.account === id) this.links.delete(token);
    return { id, object: 'account', deleted: true };
  }

  // --- account links and the hosted onboarding page ---

  createAccountLink(r: Reader): Stripe.AccountLink {
    const acct = this.account(r.required('account'));
    const type = r.oneOf('type', ['account_onboarding', 'account_update'] as const, { required: true })!;
    const refreshUrl = r.url('refresh_url', { required: true })!;
    const returnUrl = r.url('return_url', { required: true })!;
    r.oneOf('collect', ['currently_due', 'eventually_due'] as const);
    const options = r.hash('collection_options');
    options?.oneOf('fields', ['currently_due', 'eventually_due'] as const);
    options?.oneOf('future_requirements', ['include', 'omit'] as const);
    options?.done();
    r.done();
    if (type === 'account_update' && acct.controller?.requirement_collection !== 'application') {
      throw invalid(
        'You cannot create `account_update` type Account Links for accounts where Stripe collects requirements (`controller[requirement_collection]=stripe`): use `account_onboarding`, or the Express dashboard.',
        'type',
      );
    }
    const created = this.now();
    const token = o.newId('x', 12).slice(2);
    this.links.set(token, { token, account: acct.id, type, refreshUrl, returnUrl, expiresAt: created + LINK_LIFETIME_SECONDS, used: false });
    return o.accountLink({ url: `${this.endpoint()}/setup/e/${acct.id}/${token}`, created, expiresAt: created + LINK_LIFETIME_SECONDS });
  }

  /** The link behind a hosted page: its account's view, or where an expired or used link sends the browser (its refresh URL). */
  openLink(accountId: string, token: string): { view: OnboardingView } | { refresh: string } | undefined {
    const link = this.links.get(token);
    if (!link || link.account !== accountId) return undefined;
    const acct = this.accounts.get(accountId);
    if (!acct) return undefined;
    if (link.used || this.now() > link.expiresAt) return { refresh: link.refreshUrl };
    const bank = acct.external_accounts?.data[0];
    return { view: { account: acct, identity: this.identities.get(acct.id) ?? {}, bankLast4: bank?.last4 ?? null } };
  }

  /**
   * The onboarding form, sent. `submit` needs every field and makes the account active;
   * `later` (Save and finish later) keeps the fields given and leaves the rest due. Either way
   * the link is used up and the browser goes to the return URL.
   */
  submitOnboarding(accountId: string, token: string, form: Record<string, string>, userAgent: string | null): OnboardingAnswer | undefined {
    const opened = this.openLink(accountId, token);
    if (!opened) return undefined;
    if ('refresh' in opened) return { kind: 'redirect', to: opened.refresh };
    const link = this.links.get(token)!;
    const acct = opened.view.account;
    const finish = form.action !== 'later';
    const text = (k: OnboardingField) => (form[k] ?? '').trim();
    const errors: Partial<Record<OnboardingField, string>> = {};
    const given = (k: OnboardingField) => text(k) !== '';
    const check = (k: OnboardingField, ok: boolean, message: string) => {
      if ((finish || given(k)) && !ok) errors[k] = message;
    };
    check('first_name', given('first_name') && text('first_name').length <= 100, 'Enter your legal first name.');
    check('last_name', given('last_name') && text('last_name').length <= 100, 'Enter your legal last name.');
    const dob = parseDate(text('dob'));
    check('dob', dob !== undefined, 'Enter your date of birth (YYYY-MM-DD).');
    if (dob && !errors.dob && ageOn(dob, this.now()) < 18) errors.dob = 'You must be at least 18 years old to receive payouts.';
    check('ssn_last_4', /^\d{4}$/.test(text('ssn_last_4')), 'Enter the last 4 digits of your Social Security number (test: 0000).');
    const bankGiven = given('routing_number') || given('account_number');
    const checkBank = (k: OnboardingField, ok: boolean, message: string) => {
      if ((finish || bankGiven) && !ok) errors[k] = message;
    };
    checkBank('routing_number', /^\d{9}$/.test(text('routing_number')), 'Enter the 9-digit routing number (test: 110000000).');
    checkBank('account_number', /^\d{4,17}$/.test(text('account_number')), 'Enter an account number of 4 to 17 digits (test: 000123456789).');
    if (Object.keys(errors).length > 0) return { kind: 'invalid', errors };

    const before = structuredClone(acct);
    const identity = this.identities.get(acct.id) ?? {};
    if (given('first_name')) identity.firstName = text('first_name');
    if (given('last_name')) identity.lastName = text('last_name');
    if (dob) identity.dob = text('dob');
    if (given('ssn_last_4')) identity.ssnLast4 = text('ssn_last_4');
    this.identities.set(acct.id, identity);
    if (bankGiven) this.setBankAccount(acct, text('routing_number'), text('account_number'), [identity.firstName, identity.lastName].filter(Boolean).join(' '));

    const satisfied = new Set<string>();
    if (identity.firstName) satisfied.add('individual.first_name');
    if (identity.lastName) satisfied.add('individual.last_name');
    if (identity.dob) for (const part of ['day', 'month', 'year']) satisfied.add(`individual.dob.${part}`);
    if (identity.ssnLast4) satisfied.add('individual.ssn_last_4');
    const bank = acct.external_accounts?.data[0];
    if (bank && bank.object === 'bank_account' && bank.status !== 'errored') satisfied.add('external_account');
    if (finish) {
      satisfied.add('tos_acceptance.date');
      satisfied.add('tos_acceptance.ip');
      acct.tos_acceptance = { date: this.now(), ip: '127.0.0.1', user_agent: userAgent };
    } else if (acct.tos_acceptance?.date) {
      satisfied.add('tos_acceptance.date');
      satisfied.add('tos_acceptance.ip');
    }
    const due = ONBOARDING_REQUIREMENTS.filter((f) => !satisfied.has(f));
    acct.requirements = o.requirements(due);
    if (finish) acct.details_submitted = true;
    const active = acct.details_submitted && due.length === 0;
    for (const name of Object.keys(acct.capabilities ?? {}) as CapabilityName[]) acct.capabilities![name] = active ? 'active' : 'inactive';
    acct.payouts_enabled = active;
    acct.charges_enabled = acct.capabilities?.card_payments === 'active';
    link.used = true;
    this.emitAccountUpdated(acct, before);
    this.log(`${acct.id}: onboarding ${finish ? 'submitted' : 'saved for later'}${active ? ' (active)' : ''}`);
    // The balance that waited for a bank account goes out now, as Stripe's next automatic payout would.
    this.payOut(acct.id);
    return { kind: 'redirect', to: link.returnUrl };
  }

  /**
   * The account's bank account from the page: a new number replaces the old account (created,
   * then the old one deleted, as Stripe does); the same number again is the same bank account,
   * updated (an errored one is usable again, the holder's name follows the form).
   */
  private setBankAccount(acct: Stripe.Account, routingNumber: string, accountNumber: string, holderName: string): void {
    const list = acct.external_accounts!;
    const current = list.data[0] as Stripe.BankAccount | undefined;
    if (current && this.bankNumbers.get(current.id) === accountNumber && current.routing_number === routingNumber) {
      const before = JSON.stringify(current);
      current.status = 'new';
      current.account_holder_name = holderName || current.account_holder_name;
      if (JSON.stringify(current) !== before) this.emit('account.external_account.updated', current, acct.id);
      return;
    }
    const bank = o.bankAccount({
      id: o.newId('ba'),
      account: acct.id,
      holderName,
      routingNumber,
      accountNumber,
      fingerprint: createHash('sha256').update(`${routingNumber}/${accountNumber}`).digest('base64url').slice(0, 16),
    });
    this.bankNumbers.set(bank.id, accountNumber);
    list.data = [bank];
    this.emit('account.external_account.created', bank, acct.id);
    if (current) {
      current.default_for_currency = false;
      this.emit('account.external_account.deleted', current, acct.id);
    }
  }

  externalAccounts(accountId: string): Stripe.BankAccount[] {
    return (this.account(accountId, 'account').external_accounts?.data ?? []) as Stripe.BankAccount[];
  }

  // --- balances, transfers, payouts ---

  platformBalanceObject(): Stripe.Balance {
    return o.balance(this.platformBalance);
  }

  connectedBalanceObject(accountId: string): Stripe.Balance {
    return o.balance(this.connectedBalance.get(accountId) ?? 0);
  }

  createTransfer(r: Reader): Stripe.Transfer {
    const amount = r.integer('amount', { required: true, min: 1, max: 99_999_999 })!;
    const currency = r.required('currency').toLowerCase();
    const destination = r.required('destination');
    const transferGroup = r.string('transfer_group', { max: 5000 }) || null;
    const description = r.string('description', { max: 5000 }) || null;
    const metadata = r.metadata() ?? {};
    r.done();
    if (currency !== 'usd') throw invalid(`The emulator's platform balance is in usd only, not ${currency}.`, 'currency');
    const acct = this.accounts.get(destination);
    if (!acct) throw invalid(`No such destination: '${destination}'`, 'destination', 'resource_missing');
    if (acct.capabilities?.transfers !== 'active') {
      throw executed(
        invalid(
          'Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments',
          'destination',
          'insufficient_capabilities_for_transfer',
        ),
      );
    }
    if (this.webhooks.takeTransferFault(destination) || amount > this.platformBalance) {
      throw executed(
        invalid(
          'You have insufficient available funds in your Stripe account. Try adding funds directly to your available balance by creating Charges using the 4000000000000077 test card. See: https://stripe.com/docs/testing#available-balance',
          undefined,
          'balance_insufficient',
        ),
      );
    }
    const tr = o.transfer({
      id: o.newId('tr'),
      amount,
      currency,
      destination,
      destinationPayment: o.newId('py'),
      transferGroup,
      description,
      metadata,
      created: this.now(),
    });
    this.transfers.set(tr.id, tr);
    this.platformBalance -= amount;
    this.connectedBalance.set(destination, (this.connectedBalance.get(destination) ?? 0) + amount);
    this.emit('transfer.created', tr, undefined);
    this.log(`${tr.id}: ${amount} ${currency} to ${destination}`);
    // The connected account's automatic payout, once this call has answered.
    setImmediate(() => {
      if (!this.stopped) this.payOut(destination);
    });
    return tr;
  }

  transfer(id: string): Stripe.Transfer {
    const tr = this.transfers.get(id);
    if (!tr) throw missing('transfer', id, 'id');
    return tr;
  }

  updateTransfer(id: string, r: Reader): Stripe.Transfer {
    const tr = this.transfer(id);
    const before = structuredClone(tr);
    const description = r.string('description', { max: 5000 });
    if (description !== undefined) tr.description = description || null;
    tr.metadata = mergeMetadata(tr.metadata, r.metadata());
    r.done();
    const previous: Record<string, unknown> = {};
    if (before.description !== tr.description) previous.description = before.description;
    if (JSON.stringify(before.metadata) !== JSON.stringify(tr.metadata)) previous.metadata = before.metadata;
    if (Object.keys(previous).length) this.emit('transfer.updated', tr, undefined, previous);
    return tr;
  }

  /** `POST /v1/transfers/:id/reversals`: money back from the connected account (its balance may go below zero). */
  reverseTransfer(id: string, r: Reader): Stripe.TransferReversal {
    const tr = this.transfer(id);
    const left = tr.amount - tr.amount_reversed;
    const amount = r.integer('amount', { min: 1 }) ?? left;
    const metadata = r.metadata() ?? {};
    r.string('description');
    r.boolean('refund_application_fee');
    r.done();
    if (left === 0) throw invalid(`Transfer ${tr.id} has already been fully reversed.`, undefined, 'transfer_already_reversed' as string);
    if (amount > left) throw invalid(`Reversal amount (${amount}) is greater than the transfer's unreversed amount (${left}).`, 'amount');
    const rev = o.transferReversal({ id: o.newId('trr'), amount, currency: tr.currency, transfer: tr.id, metadata, created: this.now() });
    const before = structuredClone(tr);
    tr.amount_reversed += amount;
    tr.reversed = tr.amount_reversed === tr.amount;
    tr.reversals = o.list(`/v1/transfers/${tr.id}/reversals`, [rev, ...tr.reversals.data]);
    const destination = tr.destination as string;
    this.platformBalance += amount;
    this.connectedBalance.set(destination, (this.connectedBalance.get(destination) ?? 0) - amount);
    this.emit('transfer.reversed', tr, undefined, { amount_reversed: before.amount_reversed, reversals: before.reversals, reversed: before.reversed });
    return rev;
  }

  payoutOf(accountId: string, id: string): Stripe.Payout {
    const po = this.payouts.get(id);
    if (!po || this.payoutAccount.get(id) !== accountId) throw missing('payout', id, 'id');
    return po;
  }

  payoutsOf(accountId: string | null): Stripe.Payout[] {
    return [...this.payouts.values()].filter((p) => this.payoutAccount.get(p.id) === accountId);
  }

  /**
   * The connected account's automatic payout: its whole available balance to its bank account
   * (when payouts are enabled), `pending` at once and then `paid`, or `failed` when the bank
   * account's test number says so, on the next turn (the emulator does not wait for the arrival
   * date).
   */
  private payOut(accountId: string): void {
    const acct = this.accounts.get(accountId);
    const amount = this.connectedBalance.get(accountId) ?? 0;
    const bank = acct?.external_accounts?.data[0] as Stripe.BankAccount | undefined;
    if (!acct || !acct.payouts_enabled || !bank || bank.status === 'errored' || amount <= 0) return;
    const created = this.now();
    const po = o.payout({ id: o.newId('po'), amount, currency: 'usd', destination: bank.id, created, arrivalDate: created + days(PAYOUT_ARRIVAL_DAYS) });
    this.payouts.set(po.id, po);
    this.payoutAccount.set(po.id, accountId);
    this.connectedBalance.set(accountId, 0);
    this.emit('payout.created', po, accountId);
    setImmediate(() => {
      if (!this.stopped) this.settlePayout(po, accountId, bank);
    });
  }

  private settlePayout(po: Stripe.Payout, accountId: string, bank: Stripe.BankAccount): void {
    const failure = FAILING_BANK_ACCOUNTS[this.bankNumbers.get(bank.id) ?? ''];
    if (!failure) {
      po.status = 'paid';
      this.emit('payout.paid', po, accountId, { status: 'pending' });
      this.log(`${po.id}: paid to ${accountId}`);
      return;
    }
    po.status = 'failed';
    po.failure_code = failure.code;
    po.failure_message = failure.message;
    po.failure_balance_transaction = o.newId('txn');
    this.connectedBalance.set(accountId, (this.connectedBalance.get(accountId) ?? 0) + po.amount);
    this.emit('payout.failed', po, accountId, { status: 'pending', failure_code: null, failure_message: null, failure_balance_transaction: null });
    this.log(`${po.id}: failed for ${accountId} (${failure.code})`);
    // The bank account is disabled until the talent gives another; payouts wait for it.
    const acct = this.accounts.get(accountId);
    if (!acct) return;
    if (bank.status !== 'errored') {
      bank.status = 'errored';
      this.emit('account.external_account.updated', bank, accountId, { status: 'new' });
    }
    const before = structuredClone(acct);
    const due = [...new Set([...(acct.requirements?.currently_due ?? []), 'external_account'])];
    acct.requirements = o.requirements(due);
    acct.payouts_enabled = false;
    this.emitAccountUpdated(acct, before);
  }

  /** A Connect object by id, for expansion (`expand[]=destination`). */
  lookup(id: string): { id: string; object: string } | undefined {
    return this.accounts.get(id) ?? this.transfers.get(id);
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
}

/** `1990-01-15` or `01/15/1990`, as a date; undefined when it is not a real date. */
function parseDate(text: string): { year: number; month: number; day: number } | undefined {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const us = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
  const parts = iso ? [iso[1], iso[2], iso[3]] : us ? [us[3], us[1], us[2]] : undefined;
  if (!parts) return undefined;
  const [year, month, day] = parts.map(Number);
  const d = new Date(Date.UTC(year, month - 1, day));
  if (d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day || year < 1900) return undefined;
  return { year, month, day };
}

function ageOn(dob: { year: number; month: number; day: number }, now: number): number {
  const today = new Date(now * 1000);
  const had = today.getUTCMonth() + 1 > dob.month || (today.getUTCMonth() + 1 === dob.month && today.getUTCDate() >= dob.day);
  return today.getUTCFullYear() - dob.year - (had ? 0 : 1);
}
