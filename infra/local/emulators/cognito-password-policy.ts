// cognito-local stores any password it is given; Cognito refuses one that breaks the pool's
// password policy. The twin must not be more permissive than AWS here (the policy is a server-side
// rule of the product), so the front checks every call that sets a password against the policy of
// the template's pool and answers as Cognito does.

/** AWS::Cognito::UserPool Policies.PasswordPolicy (the fields the twin checks). */
export interface TemplatePasswordPolicy {
  MinimumLength?: number;
  RequireLowercase?: boolean;
  RequireUppercase?: boolean;
  RequireNumbers?: boolean;
  RequireSymbols?: boolean;
}

/** Cognito's password symbols (the documented set, space included). */
const SYMBOLS = /[\^$*.[\]{}()?"!@#%&/\\,><':;|_~`=+\- ]/;

/**
 * The reason Cognito gives for the first rule a password breaks, or undefined when it meets the
 * policy. Cognito checks, and words, them in this order.
 */
export function passwordPolicyViolation(policy: TemplatePasswordPolicy, password: string): string | undefined {
  const reasons: string[] = [];
  if ([...password].length < (policy.MinimumLength ?? 8)) reasons.push('Password not long enough');
  if (policy.RequireLowercase && !/[a-z]/.test(password)) reasons.push('Password must have lowercase characters');
  if (policy.RequireUppercase && !/[A-Z]/.test(password)) reasons.push('Password must have uppercase characters');
  if (policy.RequireNumbers && !/[0-9]/.test(password)) reasons.push('Password must have numeric characters');
  if (policy.RequireSymbols && !SYMBOLS.test(password)) reasons.push('Password must have symbol characters');
  return reasons.length ? `Password did not conform with policy: ${reasons[0]}` : undefined;
}

/** Where each call that sets a password carries it (action name after the service prefix). */
const PASSWORD_FIELDS: Record<string, (body: Record<string, unknown>) => unknown> = {
  SignUp: (b) => b.Password,
  ConfirmForgotPassword: (b) => b.Password,
  ChangePassword: (b) => b.ProposedPassword,
  AdminSetUserPassword: (b) => b.Password,
  AdminCreateUser: (b) => b.TemporaryPassword,
  RespondToAuthChallenge: (b) =>
    b.ChallengeName === 'NEW_PASSWORD_REQUIRED' ? (b.ChallengeResponses as Record<string, unknown> | undefined)?.NEW_PASSWORD : undefined,
};

/**
 * Cognito's refusal (`InvalidPasswordException`, HTTP 400) of a request whose new password breaks
 * the policy, or undefined when the request sets no password or a good one.
 */
export function refusePolicyBreak(
  policy: TemplatePasswordPolicy | undefined,
  action: string,
  body: Record<string, unknown> | undefined,
): { __type: 'InvalidPasswordException'; message: string } | undefined {
  if (!policy || !body) return undefined;
  const password = PASSWORD_FIELDS[action]?.(body);
  if (typeof password !== 'string') return undefined;
  const message = passwordPolicyViolation(policy, password);
  return message ? { __type: 'InvalidPasswordException', message } : undefined;
}
