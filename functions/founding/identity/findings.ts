// What a verified ID proves, as the reviewer reads it (docs/identity.md, "Verified identity"): the
// name on the document against the name applied with, and 18 or older on the day of the check.
// Pure rules, so the unit tests pin them down (test/unit/functions/identity-findings.test.ts).
import type { AgeFinding, NameFinding } from '../../../events/identity';

/**
 * A name as compared: accents dropped (é -> e, ø stays ø only where Unicode has no base letter),
 * case folded, hyphens read as spaces (Anne-Marie = Anne Marie), apostrophes and dots dropped
 * (O'Brien = OBrien, J. = J), spaces collapsed; then its words.
 */
export function nameWords(name: string): string[] {
  return name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[‐‑‒–—-]/g, ' ')
    .replace(/['’ʼ`.]/g, '')
    .split(/\s+/)
    .filter(Boolean);
}

/** Whether `short`'s words appear in `long` in the same order (other words may stand between them). */
function inOrderWithin(short: readonly string[], long: readonly string[]): boolean {
  let at = 0;
  for (const word of long) if (at < short.length && word === short[at]) at++;
  return at === short.length;
}

const sameWords = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((w, i) => w === b[i]);
const sortedWords = (words: readonly string[]) => [...words].sort();

/**
 * The verified name against the applied one. A match when, compared as `nameWords` gives them:
 * 1. the same words in the same order ("same name");
 * 2. the same words in another order ("first and last name in another order": a document that
 *    puts the family name first);
 * 3. the shorter name's words stand in the longer one in order, with the same first word and the
 *    same last word ("same name with a middle name": middle names on one side only).
 * Anything else is a mismatch, with a note saying which part differs. A mismatch is a finding for
 * the reviewer (and a gate on accepting), never a silent pass.
 */
export function nameFinding(applied: { firstName: string; lastName?: string }, verified: { firstName: string | null; lastName: string | null }): NameFinding {
  const appliedName = [applied.firstName, applied.lastName].filter(Boolean).join(' ').trim();
  const verifiedName = [verified.firstName, verified.lastName].filter(Boolean).join(' ').trim();
  const a = nameWords(appliedName);
  const v = nameWords(verifiedName);
  const finding = (result: NameFinding['result'], note: string): NameFinding => ({ result, verified: verifiedName, applied: appliedName, note });
  if (a.length === 0 || v.length === 0) return finding('mismatch', v.length === 0 ? 'the document gave no name' : 'no name was applied with');
  const plain = (s: string) => s.toLowerCase().replace(/\s+/g, ' ');
  if (sameWords(a, v)) return finding('match', plain(appliedName) === plain(verifiedName) ? 'same name' : 'same name, accents, hyphens or punctuation aside');
  if (sameWords(sortedWords(a), sortedWords(v))) return finding('match', 'first and last name in another order');
  const [short, long] = a.length <= v.length ? [a, v] : [v, a];
  if (short[0] === long[0] && short.at(-1) === long.at(-1) && inOrderWithin(short, long)) {
    return finding('match', a.length < v.length ? 'same name with a middle name on the document' : 'same name with a middle name on the application');
  }
  const firstSame = a[0] === v[0];
  const lastSame = a.at(-1) === v.at(-1);
  if (firstSame && !lastSame) return finding('mismatch', 'the last name differs');
  if (!firstSame && lastSame) return finding('mismatch', 'the first name differs');
  return finding('mismatch', 'the names differ');
}

/** A date of birth as Stripe verifies it; any part may be missing. */
interface BirthDate {
  day: number | null;
  month: number | null;
  year: number | null;
}

/**
 * 18 or older on `checkedOn` (a calendar day, `YYYY-MM-DD`, UTC): the 18th birthday is on or
 * before that day. Someone born on 29 February turns 18 on 1 March in a year without one (the
 * later reading: never adult a day early). Undefined when a part of the date is missing: nothing
 * is proven. The date itself is not kept (decision 056): only this finding.
 */
export function ageFinding(dob: BirthDate | null | undefined, checkedOn: string): AgeFinding | undefined {
  if (!dob?.day || !dob.month || !dob.year) return undefined;
  const [y, m, d] = checkedOn.split('-').map(Number) as [number, number, number];
  const adultYear = dob.year + 18;
  const adult = y > adultYear || (y === adultYear && (m > dob.month || (m === dob.month && d >= dob.day)));
  return { result: adult ? '18+' : 'under-18', checkedOn };
}
