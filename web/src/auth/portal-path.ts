import { SELF_SIGNUP_ROLES, type AccountRole } from '../../../events/account-values';
import { safeNextPath } from './next-path';

/** The portal of a role; the chooser when the role is not known (yet). */
export function portalPathFor(role: AccountRole | null | undefined): string {
  if (role === 'client') return '/client-portal';
  if (role === 'talent') return '/talent-portal';
  return '/portal';
}

/** The role named by a token's `cognito:groups`. */
export function roleFromGroups(groups: unknown): AccountRole | null {
  if (!Array.isArray(groups)) return null;
  return SELF_SIGNUP_ROLES.find((role) => groups.includes(role)) ?? null;
}

/** Where a person goes once signed in: the page that asked (same site only), else their portal. */
export function afterSignInPath(next: string | null | undefined, role: AccountRole | null | undefined): string {
  return safeNextPath(next) ?? portalPathFor(role);
}
