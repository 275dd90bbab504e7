import { useSyncExternalStore } from 'react';
import { useLocation } from 'react-router';

/**
 * Amplify keeps the app client's last signed-in user in localStorage under
 * `CognitoIdentityServiceProvider.<app client id>.LastAuthUser`, and removes it on sign-out.
 */
const LAST_AUTH_USER = /^CognitoIdentityServiceProvider\.[^.]+\.LastAuthUser$/;

/**
 * Whether this browser holds a sign-in, read from storage without loading the sign-in code
 * (marketing pages never load it). A hint for the header only: the portal checks the session
 * itself and sends an expired one to sign in.
 */
export function hasStoredSignIn(storage: Pick<Storage, 'length' | 'key' | 'getItem'>): boolean {
  for (let i = 0; i < storage.length; i += 1) {
    const key = storage.key(i);
    if (key && LAST_AUTH_USER.test(key) && storage.getItem(key)) return true;
  }
  return false;
}

function readStoredSignIn(): boolean {
  try {
    return hasStoredSignIn(window.localStorage);
  } catch {
    // Storage can be refused (blocked cookies, some private modes): signed out, as prerendered.
    return false;
  }
}

/** Another tab signing in or out changes the storage; this one's own changes come with a navigation. */
function subscribe(onChange: () => void): () => void {
  window.addEventListener('storage', onChange);
  return () => window.removeEventListener('storage', onChange);
}

/**
 * The stored sign-in: false in the prerendered HTML (the same for everyone) and while the page
 * takes it over, then read from storage at every render (signing in and out navigate, which
 * renders the layout again) and when another tab signs in or out.
 */
export function useStoredSignIn(): boolean {
  useLocation();
  return useSyncExternalStore(subscribe, readStoredSignIn, () => false);
}
