import { useContext } from 'react';
import { AuthContext } from './context';
import type { AuthContextValue } from './types';

/** The auth context (./types.ts). Only account routes provide it (web/src/routes/account-pages.tsx). */
export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) {
    throw new Error('useAuth() must be used on an account route: the page must sit under the account layout (web/src/routes/account-pages.tsx), which provides the auth context');
  }
  return value;
}
