import type { AccountRole } from '../../../events/account-values';
import type { MeResponse, Profile, UpdateMeRequest } from '../../../events/accounts';

/**
 * The auth context (docs/product.md#accounts): the signed-in user, their session, profile and role, and a
 * loading flag that stays true until the first auth state is known. It is fetched at start and
 * again on every auth event (signed in, signed out, token refreshed, user updated). Only account
 * routes provide it, so marketing pages never load auth code.
 */
export interface AuthState {
  /** The Cognito user, or null when signed out. */
  user: { id: string; email: string } | null;
  /** The current tokens; `expiresAt` is the id token's expiry (ms since epoch). */
  session: { idToken: string; expiresAt: number } | null;
  profile: Profile | null;
  role: AccountRole | null;
  /** The whole `GET /me` answer (plan, credits, talent standing), or null when signed out. */
  me: MeResponse | null;
  loading: boolean;
  /** A failure to read the account (shown by the pages; auth errors are returned to callers). */
  error: string | null;
}

export interface AuthActions {
  /** A current id token for API calls (refreshed when it has expired), or undefined when signed out. */
  getIdToken(): Promise<string | undefined>;
  /** Fetches `GET /me` again (after a change). */
  refresh(): Promise<void>;
  /** `PATCH /me`; rejects with 'No user logged in' when signed out (docs/product.md#account-api). */
  updateProfile(changes: UpdateMeRequest): Promise<Profile>;
  /** Signs out everywhere (every device's refresh token is revoked) and clears the state. */
  signOut(): Promise<void>;
}

export type AuthContextValue = AuthState & AuthActions;
