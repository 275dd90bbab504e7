import { EMAIL_PATTERN } from '../../lib/email';

/** Talent application page state. */
export interface TalentApplicationValues {
  name: string;
  email: string;
  phone: string;
  age: string;
  location: string;
  experience: string;
  why: string;
  excludedIndustries: { religion: boolean; politics: boolean; alcohol: boolean };
  consent: boolean;
  terms: boolean;
}

export type TalentApplicationField = 'name' | 'email' | 'age' | 'location' | 'why' | 'terms';
export type TalentApplicationErrors = Partial<Record<TalentApplicationField, string>>;

/** Document order, to focus the first invalid field. */
export const VALIDATED_FIELDS: readonly TalentApplicationField[] = ['name', 'email', 'age', 'location', 'why', 'terms'];

export const MIN_AGE = 18;

export const TALENT_APPLICATION_MESSAGES = {
  name: 'Please enter your full name.',
  email: 'Please enter your email address.',
  invalidEmail: 'Please enter a valid email address.',
  age: 'Please enter your age.',
  invalidAge: 'Please enter your age as a whole number.',
  underAge: 'You must be 18 or older to apply to become talent.',
  location: 'Please enter your city and country.',
  why: 'Please tell us why you want to join.',
  terms: 'Please agree to the Terms of Service and Privacy Policy.',
} as const;

export const EMPTY_TALENT_APPLICATION: TalentApplicationValues = {
  name: '',
  email: '',
  phone: '',
  age: '',
  location: '',
  experience: '',
  why: '',
  excludedIndustries: { religion: false, politics: false, alcohol: false },
  consent: false,
  terms: false,
};

/** The age rule alone: shown inline as soon as an age under 18 is entered. */
function ageError(age: string): string | undefined {
  const trimmed = age.trim();
  if (trimmed === '') return TALENT_APPLICATION_MESSAGES.age;
  const n = Number(trimmed);
  if (!Number.isInteger(n) || n <= 0 || n > 120) return TALENT_APPLICATION_MESSAGES.invalidAge;
  if (n < MIN_AGE) return TALENT_APPLICATION_MESSAGES.underAge;
  return undefined;
}

/**
 * Required: full name, email (valid format), age (at least 18), location, why join, terms.
 * Phone and 'tell us about yourself' are optional. Consent is enforced by the disabled button.
 */
export function validateTalentApplication(values: TalentApplicationValues): TalentApplicationErrors {
  const errors: TalentApplicationErrors = {};
  if (!values.name.trim()) errors.name = TALENT_APPLICATION_MESSAGES.name;
  const email = values.email.trim();
  if (!email) errors.email = TALENT_APPLICATION_MESSAGES.email;
  else if (!EMAIL_PATTERN.test(email)) errors.email = TALENT_APPLICATION_MESSAGES.invalidEmail;
  const age = ageError(values.age);
  if (age) errors.age = age;
  if (!values.location.trim()) errors.location = TALENT_APPLICATION_MESSAGES.location;
  if (!values.why.trim()) errors.why = TALENT_APPLICATION_MESSAGES.why;
  if (!values.terms) errors.terms = TALENT_APPLICATION_MESSAGES.terms;
  return errors;
}

/** Standard royalty tiers, applied to the licenses within each band per month (docs/product.md#royalties). */
export const ROYALTY_TIERS = [
  { rate: 20, band: 'First 50 licenses', detail: 'Licenses 1-50 each month' },
  { rate: 25, band: 'Licenses 51-200', detail: 'Every license from the 51st to the 200th' },
  { rate: 30, band: 'Beyond 200', detail: 'Every license after the 200th' },
] as const;

export const REVIEW_TIME = '15 business days';
