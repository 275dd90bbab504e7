// Words and numbers the portals show (docs/product.md#client-portal, #talent-portal). Pure, so
// they are the same wherever they run.
import { FULL_NAME_MAX_LENGTH, type LedgerKind, type TalentAccess } from '../../../events/account-values';
import type { ApplicationStatus, ExcludableIndustry } from '../../../events/founding-values';
import { firstNameOf } from '../api/talent';

/** A ledger entry's kind, as a client reads it. */
export const LEDGER_KIND_LABELS: Record<LedgerKind, string> = {
  grant: 'Grant',
  reserve: 'Reserved',
  commit: 'Spent',
  release: 'Returned',
  expire: 'Expired',
  'take-back': 'Refunded',
};

/** A change to the balance: "+10", "-3", "0". */
export function formatCreditChange(credits: number): string {
  if (!Number.isInteger(credits)) throw new RangeError(`credits must be an integer, got ${credits}`);
  return credits > 0 ? `+${credits.toLocaleString('en-US')}` : credits.toLocaleString('en-US');
}

/** A balance or an allowance: "1,250". */
export function formatCredits(credits: number): string {
  if (!Number.isInteger(credits)) throw new RangeError(`credits must be an integer, got ${credits}`);
  return credits.toLocaleString('en-US');
}

/** "1 credit", "10 credits". */
export function creditsText(credits: number): string {
  return `${formatCredits(credits)} ${Math.abs(credits) === 1 ? 'credit' : 'credits'}`;
}

/** "Nov 24, 2026" in the reader's time zone (or the one given, for tests). */
export function formatDate(iso: string, timeZone?: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) throw new RangeError(`not a date: ${iso}`);
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric', timeZone });
}

/** An application's status, in the applicant's words. */
export const APPLICATION_STATUS_TEXT: Record<ApplicationStatus, { label: string; body: string }> = {
  validating: { label: 'Checking your photos', body: 'We are checking the photos you sent. This usually takes a few minutes.' },
  pending_review: { label: 'In review', body: 'Your photos passed our checks and a person is reviewing your application. We email you the decision.' },
  accepted: { label: 'Accepted', body: 'Your application was accepted: your likeness is in the catalog.' },
  rejected: { label: 'Not accepted', body: 'Your application was not accepted this time. We emailed you the reasons.' },
  invalid: { label: 'More photos needed', body: 'Too few of your photos passed our checks. We emailed you what to change; apply again with new photos.' },
  failed: { label: 'Could not be processed', body: 'Something went wrong on our side while checking your application. Contact us and we will look into it.' },
};

/** Where a talent account stands, as a heading. */
export const TALENT_ACCESS_TEXT: Record<TalentAccess, string> = {
  none: 'No application yet',
  applied: 'Application received',
  accepted: 'Accepted',
};

/** A likeness's catalog status. */
export const LIKENESS_STATUS_TEXT: Record<'active' | 'hidden', { label: string; body: string }> = {
  active: { label: 'Active', body: 'Your likeness is listed in the Talent Library and clients can generate images with it.' },
  hidden: { label: 'Hidden', body: 'Your likeness is not listed in the Talent Library yet, so no one can generate images with it.' },
};

/** The industries a talent may exclude, as the application forms name them. */
export const INDUSTRY_LABELS: Record<ExcludableIndustry, string> = {
  religion: 'Religion',
  politics: 'Politics',
  alcohol: 'Alcohol',
};

/** True when both lists hold the same industries, in any order. */
export function sameIndustries(a: readonly string[], b: readonly string[]): boolean {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((i) => y.has(i));
}

/** The name a person may save, or why it cannot be saved (the server checks the same). */
export function fullNameProblem(name: string): string | undefined {
  const trimmed = name.trim();
  if (!trimmed) return 'Enter your full name.';
  if ([...trimmed].length > FULL_NAME_MAX_LENGTH) return `Your full name can be at most ${FULL_NAME_MAX_LENGTH} characters.`;
  return undefined;
}

/** The portals' greeting: "Welcome, Rita" for "Rita Moreno"; plain "Welcome" for an account without a name. */
export function welcomeTitle(fullName: string): string {
  const first = firstNameOf(fullName);
  return first ? `Welcome, ${first}` : 'Welcome';
}
