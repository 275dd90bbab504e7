// Connect's hosted onboarding in the Stripe emulator: account links, the page they open where a
// talent gives their identity and bank account (or saves to finish later), and what the form
// changes: the account's requirements, capabilities and payouts, and its bank account.
import { createHash } from 'node:crypto';
import type Stripe from 'stripe';
import { type Accounts, type CapabilityName, type Identity, ONBOARDING_REQUIREMENTS, type OnboardingField, type OnboardingView } from './accounts';
import type { Api } from './api';
import { invalid, type Reader } from './form';
import { formOf, type Pages, type PageRequest, redirect, sendHtml } from './http';
import * as o from './objects';
import { messagePage, onboardingPage } from './pages';
import type { Payouts } from './payouts';
import type { Store } from './store';

/** Stripe's account links expire a few minutes after they are made. */
const LINK_LIFETIME_SECONDS = 300;

interface LinkState {
  token: string;
  account: string;
  type: 'account_onboarding' | 'account_update';
  refreshUrl: string;
  returnUrl: string;
  expiresAt: number;
  used: boolean;
}

export type OnboardingAnswer =
  | { kind: 'redirect'; to: string }
  | { kind: 'invalid'; errors: Partial<Record<OnboardingField, string>> };

type Errors = Partial<Record<OnboardingField, string>>;

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

/** The form's problems: every field when finishing, the fields given when saving for later. */
function formErrors(form: Record<string, string>, finish: boolean, now: number): Errors {
  const text = (k: OnboardingField) => (form[k] ?? '').trim();
  const errors: Errors = {};
  const given = (k: OnboardingField) => text(k) !== '';
  const check = (k: OnboardingField, ok: boolean, message: string) => {
    if ((finish || given(k)) && !ok) errors[k] = message;
  };
  check('first_name', given('first_name') && text('first_name').length <= 100, 'Enter your legal first name.');
  check('last_name', given('last_name') && text('last_name').length <= 100, 'Enter your legal last name.');
  const dob = parseDate(text('dob'));
  check('dob', dob !== undefined, 'Enter your date of birth (YYYY-MM-DD).');
  if (dob && !errors.dob && ageOn(dob, now) < 18) errors.dob = 'You must be at least 18 years old to receive payouts.';
  check('ssn_last_4', /^\d{4}$/.test(text('ssn_last_4')), 'Enter the last 4 digits of your Social Security number (test: 0000).');
  const bankGiven = given('routing_number') || given('account_number');
  const checkBank = (k: OnboardingField, ok: boolean, message: string) => {
    if ((finish || bankGiven) && !ok) errors[k] = message;
  };
  checkBank('routing_number', /^\d{9}$/.test(text('routing_number')), 'Enter the 9-digit routing number (test: 110000000).');
  checkBank('account_number', /^\d{4,17}$/.test(text('account_number')), 'Enter an account number of 4 to 17 digits (test: 000123456789).');
  return errors;
}

/** The requirements the account still has once the form is saved. */
function dueAfter(acct: Stripe.Account, identity: Identity, finish: boolean): string[] {
  const satisfied = new Set<string>();
  if (identity.firstName) satisfied.add('individual.first_name');
  if (identity.lastName) satisfied.add('individual.last_name');
  if (identity.dob) for (const part of ['day', 'month', 'year']) satisfied.add(`individual.dob.${part}`);
  if (identity.ssnLast4) satisfied.add('individual.ssn_last_4');
  const bank = acct.external_accounts?.data[0];
  if (bank && bank.object === 'bank_account' && bank.status !== 'errored') satisfied.add('external_account');
  if (finish || acct.tos_acceptance?.date) {
    satisfied.add('tos_acceptance.date');
    satisfied.add('tos_acceptance.ip');
  }
  return ONBOARDING_REQUIREMENTS.filter((f) => !satisfied.has(f));
}

export class Onboarding {
  private readonly links = new Map<string, LinkState>();

  constructor(
    private readonly s: Store,
    private readonly accounts: Accounts,
    private readonly payouts: Payouts,
  ) {
    accounts.onDelete = (id) => {
      for (const [token, link] of this.links) if (link.account === id) this.links.delete(token);
    };
  }

  createAccountLink(r: Reader): Stripe.AccountLink {
    const acct = this.accounts.account(r.required('account'));
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
    const created = this.s.clocks.now(null);
    const token = o.newId('x', 12).slice(2);
    this.links.set(token, { token, account: acct.id, type, refreshUrl, returnUrl, expiresAt: created + LINK_LIFETIME_SECONDS, used: false });
    return o.accountLink({ url: this.s.url(`/setup/e/${acct.id}/${token}`), created, expiresAt: created + LINK_LIFETIME_SECONDS });
  }

  /** The link behind a hosted page: its account's view, or where an expired or used link sends the browser (its refresh URL). */
  openLink(accountId: string, token: string): { view: OnboardingView } | { refresh: string } | undefined {
    const link = this.links.get(token);
    if (!link || link.account !== accountId) return undefined;
    const acct = this.accounts.accounts.get(accountId);
    if (!acct) return undefined;
    if (link.used || this.s.clocks.now(null) > link.expiresAt) return { refresh: link.refreshUrl };
    const bank = acct.external_accounts?.data[0];
    return { view: { account: acct, identity: this.accounts.identities.get(acct.id) ?? {}, bankLast4: bank?.last4 ?? null } };
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
    const errors = formErrors(form, finish, this.s.clocks.now(null));
    if (Object.keys(errors).length > 0) return { kind: 'invalid', errors };

    const before = structuredClone(acct);
    const text = (k: OnboardingField) => (form[k] ?? '').trim();
    const identity = this.accounts.identities.get(acct.id) ?? {};
    if (text('first_name')) identity.firstName = text('first_name');
    if (text('last_name')) identity.lastName = text('last_name');
    if (parseDate(text('dob'))) identity.dob = text('dob');
    if (text('ssn_last_4')) identity.ssnLast4 = text('ssn_last_4');
    this.accounts.identities.set(acct.id, identity);
    if (text('routing_number') || text('account_number')) {
      this.setBankAccount(acct, text('routing_number'), text('account_number'), [identity.firstName, identity.lastName].filter(Boolean).join(' '));
    }
    if (finish) acct.tos_acceptance = { date: this.s.clocks.now(null), ip: '127.0.0.1', user_agent: userAgent };
    const due = dueAfter(acct, identity, finish);
    acct.requirements = o.requirements(due);
    if (finish) acct.details_submitted = true;
    const active = acct.details_submitted && due.length === 0;
    for (const name of Object.keys(acct.capabilities ?? {}) as CapabilityName[]) acct.capabilities![name] = active ? 'active' : 'inactive';
    acct.payouts_enabled = active;
    acct.charges_enabled = acct.capabilities?.card_payments === 'active';
    // The person behind the account, as the platform sees them: the legal name typed here.
    if (identity.firstName || identity.lastName) {
      acct.individual = o.individual({
        id: acct.individual?.id ?? o.newId('person', 16),
        account: acct.id,
        created: acct.individual?.created ?? this.s.clocks.now(null),
        firstName: identity.firstName ?? null,
        lastName: identity.lastName ?? null,
        verified: active,
      });
    }
    link.used = true;
    this.accounts.emitAccountUpdated(acct, before);
    this.s.log(`${acct.id}: onboarding ${finish ? 'submitted' : 'saved for later'}${active ? ' (active)' : ''}`);
    // The balance that waited for a bank account goes out now, as Stripe's next automatic payout would.
    this.payouts.payOut(acct.id);
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
    if (current && this.accounts.bankNumbers.get(current.id) === accountNumber && current.routing_number === routingNumber) {
      const before = JSON.stringify(current);
      current.status = 'new';
      current.account_holder_name = holderName || current.account_holder_name;
      if (JSON.stringify(current) !== before) this.s.emitConnected('account.external_account.updated', current, acct.id);
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
    this.accounts.bankNumbers.set(bank.id, accountNumber);
    list.data = [bank];
    this.s.emitConnected('account.external_account.created', bank, acct.id);
    if (current) {
      current.default_for_currency = false;
      this.s.emitConnected('account.external_account.deleted', current, acct.id);
    }
  }

  routes(api: Api): void {
    api.on('POST', '/v1/account_links', (r) => this.createAccountLink(r));
  }

  /** Connect's hosted onboarding (an account link): GET shows the form, POST saves it; an expired or used link goes to its refresh URL. */
  pages(pages: Pages): void {
    pages.on(/^\/setup\/e\/(acct_[A-Za-z0-9]+)\/([A-Za-z0-9]+)$/, ['GET', 'POST'], (p) => this.page(p));
  }

  private async page({ req, res, match: [accountId, token], method }: PageRequest): Promise<void> {
    const action = `/setup/e/${accountId}/${token}`;
    if (method === 'GET') {
      const opened = this.openLink(accountId, token);
      if (!opened) return sendHtml(res, 404, messagePage('Page not found', 'This onboarding link is not valid.'));
      if ('refresh' in opened) return redirect(res, opened.refresh);
      return sendHtml(res, 200, onboardingPage({ action, view: opened.view }));
    }
    const form = await formOf(req);
    const answer = this.submitOnboarding(accountId, token, form, (req.headers['user-agent'] as string | undefined) ?? null);
    if (!answer) return sendHtml(res, 404, messagePage('Page not found', 'This onboarding link is not valid.'));
    if (answer.kind === 'redirect') return redirect(res, answer.to);
    const opened = this.openLink(accountId, token);
    if (!opened || 'refresh' in opened) return sendHtml(res, 410, messagePage('Link expired', 'This onboarding link is no longer valid.'));
    const values = { first_name: form.first_name ?? '', last_name: form.last_name ?? '', dob: form.dob ?? '', ssn_last_4: form.ssn_last_4 ?? '', routing_number: form.routing_number ?? '', account_number: form.account_number ?? '' };
    return sendHtml(res, 400, onboardingPage({ action, view: opened.view, errors: answer.errors, values }));
  }
}
