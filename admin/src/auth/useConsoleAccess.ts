import { useAuthState, useLocation, useNotify, usePermissions } from 'react-admin';
import { hasTwoFactor, isAdmin } from '../authProvider';

export type ConsoleAccess = 'pending' | 'signed-out' | 'no-access' | 'needs-two-factor' | 'admin';

/** Where a signed-out visitor goes, remembering the page to return to after signing in. */
export function useLoginRedirect() {
  const location = useLocation();
  return {
    to: '/login',
    state: { nextPathname: location.pathname, nextSearch: location.search },
  } as const;
}

/**
 * Who is looking at the console. Unlike react-admin's `useAuthenticated` / `requireAuth`,
 * a failed check does not call `logout()`: logout clears the query cache, which re-runs
 * the check, which logs out again, and with react-router's transitions that loop held the
 * app on a blank page for about 15 s in our trials. Callers redirect to the login page
 * instead (nothing to sign out of when there is no session; `login` replaces a stale one).
 */
export function useConsoleAccess(): ConsoleAccess {
  const notify = useNotify();
  const { authenticated, isPending } = useAuthState(undefined, false, {
    // checkAuth rejects with `message: false` for a visitor who never signed in, and with
    // a message for a session that ended (its refresh failed): show that one.
    onError: (error: { message?: unknown } | undefined) => {
      if (typeof error?.message === 'string' && error.message) notify(error.message, { type: 'warning' });
    },
  });
  const { permissions, isPending: permissionsPending } = usePermissions(undefined, {
    enabled: authenticated === true,
    staleTime: 5 * 60 * 1000,
  });
  if (isPending) return 'pending';
  if (!authenticated) return 'signed-out';
  if (permissionsPending) return 'pending';
  if (!isAdmin(permissions)) return 'no-access';
  // The API refuses admins whose sign-in did not pass two-factor sign-in: set it up first.
  return hasTwoFactor(permissions) ? 'admin' : 'needs-two-factor';
}
