import { Amplify } from 'aws-amplify';
import { fetchAuthSession, signOut as amplifySignOut } from 'aws-amplify/auth';
import 'aws-amplify/auth/enable-oauth-listener';
import { Hub } from 'aws-amplify/utils';
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { NO_USER_MESSAGE } from '../../../events/account-values';
import type { Profile, UpdateMeRequest } from '../../../events/accounts';
import type { AccountConfig } from './account-config';
import { amplifyConfig } from './amplify-config';
import { QueryProvider } from '../lib/query';
import { AuthContext } from './context';
import { fetchMe, patchMe } from './me-api';
import { roleFromGroups } from './portal-path';
import type { AuthActions, AuthContextValue, AuthState } from './types';

const SIGNED_OUT: AuthState = { user: null, session: null, profile: null, role: null, me: null, loading: false, error: null };

/** Auth events after which the state is read again (Amplify's, and a profile change of ours). */
const STATE_EVENTS = new Set(['signedIn', 'signedOut', 'tokenRefresh', 'tokenRefresh_failure', 'signInWithRedirect', 'updateUserAttributes', 'userUpdated']);

let configured: string | undefined;

/** Configures Amplify once per page for this config (the module loads only on account routes). */
function configure(config: AccountConfig): void {
  const settings = amplifyConfig(config, window.location.origin);
  const key = JSON.stringify(settings);
  if (configured === key) return;
  Amplify.configure(settings);
  configured = key;
}

/** The auth state as it is now: the tokens (refreshed by Amplify when expired), then `GET /me`. */
async function readAuthState(apiUrl: string): Promise<AuthState> {
  let idToken;
  try {
    idToken = (await fetchAuthSession()).tokens?.idToken;
  } catch {
    idToken = undefined; // a stored session whose refresh failed: signed out
  }
  if (!idToken) return SIGNED_OUT;
  const { sub, email } = idToken.payload;
  const user = { id: String(sub ?? ''), email: typeof email === 'string' ? email : '' };
  const session = { idToken: idToken.toString(), expiresAt: (idToken.payload.exp ?? 0) * 1000 };
  const tokenRole = roleFromGroups(idToken.payload['cognito:groups']);
  try {
    const me = await fetchMe(apiUrl, session.idToken);
    return { user, session, me, profile: me.profile, role: me.role ?? tokenRole, loading: false, error: null };
  } catch (err) {
    return {
      user,
      session,
      me: null,
      profile: null,
      role: tokenRole,
      loading: false,
      error: err instanceof Error && err.message ? `We could not load your account: ${err.message}` : 'We could not load your account. Please try again.',
    };
  }
}

/**
 * Holds the auth state for account routes: read at start and after every auth event; the
 * account itself from `GET /me` with the id token.
 */
export function AuthProvider({ apiUrl, account, children }: { apiUrl: string; account: AccountConfig; children: ReactNode }) {
  configure(account);
  const [state, setState] = useState<AuthState>({ ...SIGNED_OUT, loading: true });
  const generation = useRef(0);

  const getIdToken = useCallback(async (): Promise<string | undefined> => {
    try {
      // Amplify refreshes expired tokens here with the refresh token.
      const session = await fetchAuthSession();
      return session.tokens?.idToken?.toString();
    } catch {
      return undefined;
    }
  }, []);

  const load = useCallback(() => {
    // Only the latest read may set the state (events can arrive while a read is under way).
    const mine = ++generation.current;
    return readAuthState(apiUrl).then((next) => {
      if (mine === generation.current) setState(next);
    });
  }, [apiUrl]);

  useEffect(() => {
    void load();
    const stop = Hub.listen('auth', ({ payload }) => {
      if (!STATE_EVENTS.has(payload.event)) return;
      // Amplify tells before the sign-in call returns, so a page that opens next sees `loading`,
      // not the signed-out state of a moment ago.
      if (payload.event === 'signedIn' || payload.event === 'signInWithRedirect') setState((s) => ({ ...s, loading: true }));
      void load();
    });
    return stop;
  }, [load]);

  const updateProfile = useCallback(
    async (changes: UpdateMeRequest): Promise<Profile> => {
      const token = await getIdToken();
      if (!token) throw new Error(NO_USER_MESSAGE);
      const answer = await patchMe(apiUrl, token, changes);
      const profile = 'profile' in answer && answer.profile ? (answer.profile as Profile) : answer;
      setState((s) => ({ ...s, profile, me: s.me ? { ...s.me, profile } : s.me }));
      return profile;
    },
    [apiUrl, getIdToken],
  );

  const signOut = useCallback(async () => {
    try {
      // Revokes the refresh tokens of every device, then clears this browser's tokens.
      await amplifySignOut({ global: true });
    } catch {
      // A global sign-out that could not reach Cognito still clears this browser's tokens.
      await amplifySignOut().catch(() => undefined);
    }
    generation.current++;
    setState(SIGNED_OUT);
  }, []);

  const actions = useMemo<AuthActions>(() => ({ getIdToken, refresh: load, updateProfile, signOut }), [getIdToken, load, updateProfile, signOut]);
  const value = useMemo<AuthContextValue>(() => ({ ...state, ...actions }), [state, actions]);
  return (
    <AuthContext value={value}>
      <QueryProvider owner={state.user?.id ?? ''}>{children}</QueryProvider>
    </AuthContext>
  );
}
