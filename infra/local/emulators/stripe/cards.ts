// Stripe's test cards, as its test mode answers them: the numbers, what a charge on each does,
// and the `pm_card_*` test payment methods that stand for them in API calls.
import { createHash } from 'node:crypto';
import type { CardDetails } from './objects';

/**
 * What charging the card does. `fails-off-session`: the card is accepted while its holder pays
 * (the hosted checkout page) and every later charge made without them (renewals, retries)
 * is declined; Stripe's 4000 0000 0000 0341, "attaches, then fails", used to test failed renewals.
 * `disputed`: the charge succeeds and a fraud dispute opens on it, as with 4000 0000 0000 0259.
 */
type CardBehaviour = 'succeeds' | 'declined' | 'insufficient-funds' | 'fails-off-session' | 'disputed';

export interface TestCard {
  number: string;
  brand: string;
  funding: string;
  behaviour: CardBehaviour;
  /** What the card does, for the printed list and the checkout page's hint. */
  description: string;
  /** Stripe's test payment method for the card (`pm_card_visa`). */
  testPaymentMethod: string;
}

export const TEST_CARDS: readonly TestCard[] = [
  { number: '4242424242424242', brand: 'visa', funding: 'credit', behaviour: 'succeeds', description: 'pays', testPaymentMethod: 'pm_card_visa' },
  { number: '5555555555554444', brand: 'mastercard', funding: 'credit', behaviour: 'succeeds', description: 'pays (Mastercard)', testPaymentMethod: 'pm_card_mastercard' },
  { number: '4000000000000002', brand: 'visa', funding: 'credit', behaviour: 'declined', description: 'is declined', testPaymentMethod: 'pm_card_chargeDeclined' },
  { number: '4000000000009995', brand: 'visa', funding: 'credit', behaviour: 'insufficient-funds', description: 'is declined for insufficient funds', testPaymentMethod: 'pm_card_chargeDeclinedInsufficientFunds' },
  { number: '4000000000000341', brand: 'visa', funding: 'credit', behaviour: 'fails-off-session', description: 'pays at checkout, then every renewal fails', testPaymentMethod: 'pm_card_chargeCustomerFail' },
  { number: '4000000000000259', brand: 'visa', funding: 'credit', behaviour: 'disputed', description: 'pays, then a fraud dispute opens', testPaymentMethod: 'pm_card_createDispute' },
];

/** A decline as Stripe's card errors carry it. */
export interface Decline {
  code: 'card_declined' | 'incorrect_number' | 'invalid_expiry_year' | 'invalid_expiry_month' | 'invalid_cvc' | 'incomplete_number' | 'incomplete_cvc';
  declineCode: string;
  message: string;
}

const DECLINED: Decline = { code: 'card_declined', declineCode: 'generic_decline', message: 'Your card was declined.' };
const INSUFFICIENT: Decline = { code: 'card_declined', declineCode: 'insufficient_funds', message: 'Your card has insufficient funds.' };

/** The decline a charge on the card meets, or undefined when it goes through. */
export function declineOf(card: TestCard, offSession: boolean): Decline | undefined {
  switch (card.behaviour) {
    case 'declined':
      return DECLINED;
    case 'insufficient-funds':
      return INSUFFICIENT;
    case 'fails-off-session':
      return offSession ? DECLINED : undefined;
    default:
      return undefined;
  }
}

/** The Luhn check every card number passes. */
function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** The card details a card's payment method carries (the fingerprint is the same for the same number). */
export function cardDetails(card: TestCard, expMonth: number, expYear: number): CardDetails {
  return {
    brand: card.brand,
    last4: card.number.slice(-4),
    expMonth,
    expYear,
    funding: card.funding,
    fingerprint: createHash('sha256').update(card.number).digest('base64url').slice(0, 16),
  };
}

/** What the checkout form's fields hold, checked as Stripe's card form checks them. */
export function readCardForm(
  form: { number?: string; expiry?: string; cvc?: string },
  now: Date,
): { card: TestCard; expMonth: number; expYear: number } | { field: 'number' | 'expiry' | 'cvc'; decline: Decline } {
  const digits = (form.number ?? '').replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits)) {
    return { field: 'number', decline: { code: 'incomplete_number', declineCode: 'incomplete_number', message: 'Your card number is incomplete.' } };
  }
  if (!luhn(digits)) return { field: 'number', decline: { code: 'incorrect_number', declineCode: 'incorrect_number', message: 'Your card number is invalid.' } };
  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(form.expiry ?? '');
  if (!expiry) return { field: 'expiry', decline: { code: 'invalid_expiry_month', declineCode: 'invalid_expiry_month', message: "Your card's expiration date is incomplete." } };
  const expMonth = Number(expiry[1]);
  const expYear = expiry[2].length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2]);
  if (expMonth < 1 || expMonth > 12) return { field: 'expiry', decline: { code: 'invalid_expiry_month', declineCode: 'invalid_expiry_month', message: "Your card's expiration month is invalid." } };
  if (expYear < now.getUTCFullYear() || (expYear === now.getUTCFullYear() && expMonth < now.getUTCMonth() + 1)) {
    return { field: 'expiry', decline: { code: 'invalid_expiry_year', declineCode: 'invalid_expiry_year', message: "Your card's expiration year is in the past." } };
  }
  if (!/^\d{3,4}$/.test((form.cvc ?? '').trim())) return { field: 'cvc', decline: { code: 'incomplete_cvc', declineCode: 'incomplete_cvc', message: "Your card's security code is incomplete." } };
  const card = TEST_CARDS.find((c) => c.number === digits);
  if (!card) {
    // Stripe's test mode refuses real cards.
    return {
      field: 'number',
      decline: { code: 'card_declined', declineCode: 'test_mode_live_card', message: 'Your card was declined. Your request was in test mode, but used a non test card. For a list of valid test cards, visit: https://stripe.com/docs/testing.' },
    };
  }
  return { card, expMonth, expYear };
}

export const testCardByPaymentMethod = (id: string) => TEST_CARDS.find((c) => c.testPaymentMethod === id);

/** `4242 4242 4242 4242` */
export const spacedNumber = (n: string) => n.replace(/(\d{4})(?=\d)/g, '$1 ');
