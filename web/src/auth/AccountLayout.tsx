import { Suspense, useEffect, useState } from 'react';
import { useLocation } from 'react-router';
import { useConfig } from '../config';
import { usePageTitle } from '../lib/usePageTitle';
import { accountPage } from './account-page-table';
import { loadAccountConfig, type AccountConfig } from './account-config';
import { hasAccounts } from './amplify-config';
import type { AuthProvider } from './AuthProvider';

type Loaded = { AuthProvider: typeof AuthProvider; account: AccountConfig };

/*
 * Styled inline: a stylesheet of its own would add a file name to every page's JavaScript (the
 * route table's preload list), and marketing pages are at their budget.
 */
const CENTRED = { display: 'grid', placeItems: 'center', minHeight: '50vh', color: 'var(--color-text-muted)' } as const;

/** What an account page shows until the auth code and the page are in (also the prerendered HTML). */
function AccountLoading({ title }: { title: string }) {
  usePageTitle(title);
  return (
    <div className="container" style={CENTRED} role="status" data-testid="account-loading">
      Loading…
    </div>
  );
}

function AccountMessage({ title, children }: { title: string; children: string }) {
  usePageTitle(title);
  return (
    <div className="container" style={CENTRED} role="alert" data-testid="account-unavailable">
      <p>{children}</p>
    </div>
  );
}

/**
 * The layout of account routes (../routes/account-pages.tsx): in the browser only, loads the auth
 * module (Amplify and the auth context) and the user pool's settings, then renders the page inside
 * the auth provider. The build renders the loading state, so no page's prerendered JavaScript
 * holds auth code.
 */
export function AccountLayout() {
  const { apiUrl } = useConfig();
  const { pathname } = useLocation();
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [problem, setProblem] = useState('');
  const entry = accountPage(pathname);

  useEffect(() => {
    let live = true;
    Promise.all([import('./AuthProvider'), loadAccountConfig()]).then(
      ([mod, account]) => {
        if (!live) return;
        if (hasAccounts(account)) setLoaded({ AuthProvider: mod.AuthProvider, account });
        else setProblem('Accounts are not open on this site yet.');
      },
      () => live && setProblem('Sign-in could not load. Check your connection and reload the page.'),
    );
    return () => {
      live = false;
    };
  }, []);

  const title = entry?.title ?? 'Sign in';
  // A path listed in ../routes/account-pages.tsx without a page in ./account-page-table.tsx.
  if (!entry) return <AccountMessage title="Page not found">This page does not exist.</AccountMessage>;
  if (problem) return <AccountMessage title={title}>{problem}</AccountMessage>;
  if (!loaded) return <AccountLoading title={title} />;
  const { Page } = entry;
  return (
    <loaded.AuthProvider apiUrl={apiUrl} account={loaded.account}>
      <Suspense fallback={<AccountLoading title={title} />}>
        <Page />
      </Suspense>
    </loaded.AuthProvider>
  );
}
