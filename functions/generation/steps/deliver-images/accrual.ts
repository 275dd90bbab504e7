// What a delivered image earns its talent (decision 036): the value of the exact credit it
// consumed, promotional credits at the cheapest paid credit at most, and nothing for images made by
// the talent's own account or with credits granted for testing.
import { PROMOTIONAL_CREDIT_VALUE_MICROS, type CreditLot } from '../../../../events/plans';
import type { AccrualCredit } from '../../store';

/**
 * An address's mailbox, the way we tell two addresses apart: case and surrounding spaces
 * ignored, and a `+tag` after the local part dropped (`maya+shop@x.example` reaches
 * `maya@x.example` at nearly every provider).
 */
export function mailboxOf(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at <= 0) return address;
  const local = address.slice(0, at);
  const plus = local.indexOf('+');
  return `${plus > 0 ? local.slice(0, plus) : local}${address.slice(at)}`;
}

/**
 * Whether the client is the talent: the generation's account address and the talent's (the
 * address of the application their catalog entry came from, which is their account's address)
 * reach the same mailbox. Unknown addresses are never the same.
 */
export function isOwnAccount(clientEmail: string | undefined, talentEmail: string | undefined): boolean {
  if (!clientEmail?.includes('@') || !talentEmail?.includes('@')) return false;
  return mailboxOf(clientEmail) === mailboxOf(talentEmail);
}

/** The accrual of a license that consumed `credit`. */
export function accrualOf(credit: CreditLot, ownAccount: boolean): AccrualCredit {
  if (ownAccount) return { creditValueMicros: 0, noRoyalty: 'own-account' };
  if (credit.noRoyalty) return { creditValueMicros: 0, noRoyalty: credit.noRoyalty };
  if (credit.kind === 'promotional') return { creditValueMicros: Math.min(credit.valueMicros, PROMOTIONAL_CREDIT_VALUE_MICROS), promotional: true };
  return { creditValueMicros: credit.valueMicros, ...(credit.source ? { creditSource: credit.source } : {}) };
}
