// Words of the talent portal's payouts card (docs/product.md#talent-portal): where the payout
// account stands, what Stripe still needs, and each statement's payout. Pure, from the shared
// values (events/payout-values.ts), so they are the same wherever they run.
import { STATEMENT_PAYOUT_LABELS } from '../../../events/payout-values';
import type { ConnectAccountStatus, StatementPayout } from '../../../events/payouts';
import { dollarsOfCents } from '../../../events/royalty-format';

export const money = (cents: number) => `$${dollarsOfCents(cents)}`;

/** "Nov 24, 2026" (UTC unless told otherwise: a payout's day is the same for everyone). */
function day(iso: string, timeZone = 'UTC'): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) throw new RangeError(`not a date: ${iso}`);
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone });
}

/** What the card offers: go to Stripe (first time or again), or nothing to do. */
type PayoutAction = 'set-up' | 'continue' | 'contact' | 'none';

export interface AccountText {
  /** The chip: "Payouts active", "Setup not finished"... */
  label: string;
  /** What it means and what to do, in one or two sentences. */
  body: string;
  tone: 'ok' | 'warn' | 'bad' | 'muted';
  action: PayoutAction;
}

/** Stripe's requirement field names (`individual.dob.day`) as a talent reads them; several fields may read the same. */
const REQUIREMENT_WORDS: Array<[RegExp, string]> = [
  [/^individual\.(first_name|last_name|full_name_aliases)$/, 'your legal name'],
  [/^individual\.dob\./, 'your date of birth'],
  [/^individual\.(ssn_last_4|id_number)$/, 'your tax identification number'],
  [/^individual\.address\./, 'your home address'],
  [/^individual\.email$/, 'your email address'],
  [/^individual\.phone$/, 'your phone number'],
  [/^individual\.verification\./, 'a photo of your identity document'],
  [/^external_account$/, 'your bank account'],
  [/^tos_acceptance\./, "your acceptance of Stripe's terms"],
  [/^business_profile\./, 'a description of your work'],
];

/** What Stripe still needs, in words, each once, in Stripe's order: "your date of birth, your bank account". */
export function requirementsText(fields: readonly string[]): string[] {
  const words = fields.map((f) => REQUIREMENT_WORDS.find(([pattern]) => pattern.test(f))?.[1] ?? f.replaceAll('_', ' ').replaceAll('.', ' '));
  return [...new Set(words)];
}

/** Stripe's `requirements.disabled_reason` as what happened and what the talent can do. */
function restrictedText(reason: string | undefined): Pick<AccountText, 'body' | 'action'> {
  if (reason === 'requirements.past_due' || reason === 'action_required.requested_capabilities')
    return { body: 'Stripe paused your payouts because it needs more information from you. Continue the setup to give it; your royalties wait for you meanwhile.', action: 'continue' };
  if (reason === 'requirements.pending_verification' || reason === 'under_review')
    return { body: 'Stripe is checking the details you gave. There is nothing to do: this usually takes a day or two, and your royalties wait for you meanwhile.', action: 'none' };
  if (reason === 'platform_paused') return { body: 'Payouts are paused on our side. We are on it, and your royalties wait for you meanwhile.', action: 'none' };
  if (reason?.startsWith('rejected.') || reason === 'listed')
    return { body: 'Stripe cannot pay you through this account. Write to us and we will find another way to pay you; your royalties wait for you meanwhile.', action: 'contact' };
  return { body: 'Stripe restricted your payouts. Continue the setup to see what it needs, or write to us; your royalties wait for you meanwhile.', action: 'continue' };
}

/** Where the payout account stands, as the card shows it. */
export function accountText(account: ConnectAccountStatus): AccountText {
  switch (account.state) {
    case 'not-started':
      return {
        label: 'Not set up',
        body: 'Set up payouts to receive your royalties in your bank account after each monthly close. Stripe, our payments provider, asks for your bank and tax details on its own secure page.',
        tone: 'muted',
        action: 'set-up',
      };
    case 'onboarding': {
      const needs = requirementsText(account.requirementsDue);
      return {
        label: 'Setup not finished',
        body: needs.length
          ? `Stripe still needs ${listText(needs)}. Continue the setup to give it; your royalties wait for you meanwhile.`
          : 'Stripe is checking the details you gave. Come back later, or continue the setup to check them.',
        tone: 'warn',
        action: 'continue',
      };
    }
    case 'active':
      return {
        label: 'Payouts active',
        body: account.bankLast4
          ? `Your royalties are paid to your bank account ending ${account.bankLast4} after each monthly close.`
          : 'Your royalties are paid to your bank account after each monthly close.',
        tone: 'ok',
        action: 'none',
      };
    case 'restricted':
      return { label: 'Payouts restricted', tone: 'bad', ...restrictedText(account.disabledReason) };
  }
}

/** "a, b and c". */
function listText(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

export interface PayoutText {
  label: string;
  /** The details: date and reference, the minimum, the failure and what to do. */
  detail?: string;
  tone: 'ok' | 'warn' | 'bad' | 'muted';
}

/** One statement's payout in the talent's words. */
export function payoutText(p: StatementPayout, minimumCents: number, timeZone?: string): PayoutText {
  const label = STATEMENT_PAYOUT_LABELS[p.state];
  const carriedIn = p.carriedInCents > 0 ? ` It includes ${money(p.carriedInCents)} carried from earlier statements.` : '';
  switch (p.state) {
    case 'paid':
      return {
        label,
        detail: `${money(p.amountCents)}${p.paidAt ? ` on ${day(p.paidAt, timeZone)}` : ''}${p.transferId ? `, reference ${p.transferId}` : ''}.${carriedIn}`,
        tone: 'ok',
      };
    case 'manual':
      return {
        label,
        detail: `${money(p.amountCents)}${p.paidAt ? ` on ${day(p.paidAt, timeZone)}` : ''}${p.reference ? `, reference ${p.reference}` : ''}.${carriedIn}`,
        tone: 'ok',
      };
    case 'carried':
      return {
        label: 'Carried to your next payout',
        detail: `${money(p.amountCents)} is under the ${money(minimumCents)} minimum, so it is added to your next payout.`,
        tone: 'muted',
      };
    case 'awaiting-account':
      return { label, detail: `${money(p.amountCents)} is waiting for you: it is paid once your payouts are set up and active.`, tone: 'warn' };
    case 'transferring':
      return { label, detail: `${money(p.amountCents)} is on its way to your bank account.`, tone: 'warn' };
    case 'failed':
      return {
        label,
        detail: `${p.failure ?? 'The payment to your bank account did not go through.'} Once it is fixed, we pay ${money(p.amountCents)} again; nothing is lost.`,
        tone: 'bad',
      };
    case 'nothing-due':
      return { label, tone: 'muted' };
  }
}

/** The years a talent can download earnings for: every year with a statement, and this year; newest first. */
export function earningsYears(payouts: readonly Pick<StatementPayout, 'month'>[], now = new Date()): number[] {
  const years = new Set([now.getUTCFullYear(), ...payouts.map((p) => Number(p.month.slice(0, 4)))]);
  return [...years].filter((y) => Number.isInteger(y)).sort((a, b) => b - a);
}

/** Where the talent comes back from Stripe's onboarding: `return` (done or left), `refresh` (the link expired). */
export type OnboardingReturn = 'return' | 'refresh';

/** The `payouts` parameter of the portal's address, when it is one Stripe sends back. */
export function onboardingReturnOf(search: string): OnboardingReturn | undefined {
  const value = new URLSearchParams(search).get('payouts');
  return value === 'return' || value === 'refresh' ? value : undefined;
}
