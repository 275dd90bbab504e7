import type { AccountRole } from '../../../events/account-values';
import { safeNextPath } from './next-path';
import { portalPathFor } from './portal-path';

/**
 * What /sign-in and /sign-up show for the session they find (docs/product.md#sign-in):
 * - `wait`: the session is still being read (a neutral "Loading…", never a form that then vanishes);
 * - `redirect`: signed in and `?next=` names a page of this site: go there, replacing this entry;
 * - `signed-in`: signed in without a usable `next`: say so, with a way to `continueTo` (their portal);
 * - `form`: signed out, or the page's own sign-in is under way (it moves on by itself).
 */
export type SignedInEntry = { show: 'wait' } | { show: 'redirect'; to: string } | { show: 'signed-in'; continueTo: string } | { show: 'form' };

export function signedInEntry(state: {
  /** The auth context is still reading the session. */
  loading: boolean;
  signedIn: boolean;
  role: AccountRole | null;
  /** The raw `?next=` (validated here with safeNextPath: never an open redirect). */
  next: string | null | undefined;
  /** The page is signing in, signing up or confirming itself. */
  busy: boolean;
}): SignedInEntry {
  if (state.busy) return { show: 'form' };
  if (state.loading) return { show: 'wait' };
  if (!state.signedIn) return { show: 'form' };
  const next = safeNextPath(state.next);
  return next ? { show: 'redirect', to: next } : { show: 'signed-in', continueTo: portalPathFor(state.role) };
}
