// Accounts: roles, the password policy and the texts every account screen and function shares
// (docs/product.md#accounts). Plain values, no zod, so the sign-in pages can import them without
// the schema library.

/** Roles a person may choose at sign-up. `admin` is granted by an administrator, never chosen. */
export const SELF_SIGNUP_ROLES = ['client', 'talent'] as const;
export type AccountRole = (typeof SELF_SIGNUP_ROLES)[number];
/** The Cognito attribute that carries the role chosen at sign-up. */
export const ROLE_ATTRIBUTE = 'custom:role';

/**
 * The user pool's password policy, defined once: the CDK user pool is built from it, and the
 * sign-up and reset pages check a password against it as the person types. Cognito enforces
 * it on the server whatever the browser does.
 */
export const PASSWORD_POLICY = {
  minLength: 10,
  requireLowercase: true,
  requireUppercase: true,
  requireDigits: true,
  requireSymbols: true,
} as const;

/** Cognito's password symbols (its documented set). */
const PASSWORD_SYMBOLS = /[\^$*.[\]{}()?"!@#%&/\\,><':;|_~`=+\- ]/;

/** One rule of the policy, worded for the checklist under the password field. */
export interface PasswordRule {
  id: 'length' | 'lowercase' | 'uppercase' | 'digit' | 'symbol';
  label: string;
  met: (password: string) => boolean;
}

export const PASSWORD_RULES: readonly PasswordRule[] = [
  { id: 'length', label: `At least ${PASSWORD_POLICY.minLength} characters`, met: (p) => [...p].length >= PASSWORD_POLICY.minLength },
  { id: 'lowercase', label: 'A lowercase letter', met: (p) => /[a-z]/.test(p) },
  { id: 'uppercase', label: 'An uppercase letter', met: (p) => /[A-Z]/.test(p) },
  { id: 'digit', label: 'A number', met: (p) => /[0-9]/.test(p) },
  { id: 'symbol', label: 'A symbol such as ! ? # or %', met: (p) => PASSWORD_SYMBOLS.test(p) },
];

/** The rules a password does not meet yet (empty when it meets the policy). */
export function passwordProblems(password: string): PasswordRule[] {
  return PASSWORD_RULES.filter((rule) => !rule.met(password));
}

/** A profile update without a signed-in user (docs/product.md#account-api). */
export const NO_USER_MESSAGE = 'No user logged in';
/**
 * A wrong password and an unknown email get this one message, so sign-in never reveals whether
 * an account exists.
 */
export const SIGN_IN_FAILED_MESSAGE = 'That email and password do not match an account. Check them and try again.';

/** Full names: what the profile accepts. */
export const FULL_NAME_MAX_LENGTH = 100;

/**
 * Where a talent account stands (`GET /me`): `none` (no application under this email), `applied`
 * (an application is being reviewed, or was not accepted), `accepted` (the talent features open).
 */
export const TALENT_ACCESS = ['none', 'applied', 'accepted'] as const;
export type TalentAccess = (typeof TALENT_ACCESS)[number];

/**
 * Kinds of credit ledger entries (docs/product.md#credit-ledger, decisions 021 and 043): `expire`
 * removes plan credits whose time ran out, `take-back` removes the unspent credits of a refunded
 * or disputed purchase.
 */
export const LEDGER_KINDS = ['grant', 'reserve', 'commit', 'release', 'expire', 'take-back'] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** Status of a client's request to change plan, until payments exist and admins set plans. */
export const PLAN_REQUEST_STATUSES = ['pending', 'done', 'declined'] as const;

/**
 * Why an admin grants credits (docs/product.md#console-users). Every admin grant is a
 * promotional lot; a grant for `testing` is worth nothing and earns talent nothing (decision 036).
 */
export const GRANT_CATEGORIES = ['goodwill', 'compensation', 'promotion', 'testing'] as const;
export type GrantCategory = (typeof GRANT_CATEGORIES)[number];
export const GRANT_CATEGORY_LABELS: Record<GrantCategory, string> = {
  goodwill: 'Goodwill',
  compensation: 'Compensation for a problem',
  promotion: 'Promotion or partnership',
  testing: 'Testing',
};
export const GRANT_CATEGORY_MESSAGE = `category must be one of ${GRANT_CATEGORIES.join(', ')}`;
