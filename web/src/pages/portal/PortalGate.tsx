import { useEffect, useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import type { AccountRole } from '../../../../events/account-values';
import type { MeResponse } from '../../../../events/accounts';
import { useAuth } from '../../auth/useAuth';
import type { AuthContextValue } from '../../auth/types';
import { Icon } from '../../components/Icon';
import './AccountPortal.css';

const OTHER_PORTAL: Record<AccountRole, { to: string; name: string }> = {
  client: { to: '/client-portal', name: 'client portal' },
  talent: { to: '/talent-portal', name: 'talent portal' },
};

/** What a portal page gets once the account is known. */
export type SignedIn = AuthContextValue & { me: MeResponse };

/**
 * The portals' door (docs/product.md#client-portal): a skeleton while the account loads, the
 * sign-in page when signed out (coming back here after), a way to their own portal for the other
 * role, and a retry when the account could not be read.
 */
export function PortalGate({
  role,
  children,
  wrongRole,
}: {
  role: AccountRole;
  children: (auth: SignedIn) => ReactNode;
  /** What a person of the other role sees instead (default: a way to their own portal). */
  wrongRole?: (auth: SignedIn) => ReactNode;
}) {
  const auth = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const signedOut = !auth.loading && !auth.user;
  const { getIdToken, refresh } = auth;
  // Right after a sign-in the context may not have caught up yet: a token in hand means read it again.
  const [confirmedOut, setConfirmedOut] = useState(false);
  useEffect(() => {
    if (!signedOut) return;
    let current = true;
    void getIdToken().then((token) => {
      if (!current) return;
      if (token) void refresh();
      else setConfirmedOut(true);
    });
    return () => {
      current = false;
    };
  }, [signedOut, getIdToken, refresh]);
  // Signed out for sure: to sign-in, coming back here after, with what the address asked for
  // (`?billing=portal`, `?plan=`). (An effect rather than <Navigate>, whose code would otherwise
  // ride in the router chunk every marketing page loads.)
  const toSignIn = confirmedOut && !auth.user;
  const here = `${location.pathname}${location.search}`;
  useEffect(() => {
    if (toSignIn) void navigate(`/sign-in?next=${encodeURIComponent(here)}`, { replace: true });
  }, [toSignIn, navigate, here]);

  if (auth.loading || !auth.user) return <PortalSkeleton />;
  if (!auth.me) {
    if (!auth.error) return <PortalSkeleton />;
    return (
      <PortalMessage title="We could not open your account" testId="portal-load-error">
        <p role="alert">{auth.error}</p>
        <button type="button" className="button button--primary" onClick={() => void auth.refresh()}>
          Try again
        </button>
      </PortalMessage>
    );
  }
  if (auth.me.role !== role) {
    if (wrongRole) return <>{wrongRole({ ...auth, me: auth.me })}</>;
    const own = OTHER_PORTAL[auth.me.role];
    return (
      <PortalMessage title={`This is the ${OTHER_PORTAL[role].name}`} testId="wrong-portal">
        <p>
          You are signed in with a {auth.me.role} account, which uses the {own.name}.
        </p>
        <Link to={own.to} className="button button--primary">
          Go to the {own.name} <Icon name="arrowRight" size={18} className="button__arrow" />
        </Link>
      </PortalMessage>
    );
  }
  return <>{children({ ...auth, me: auth.me })}</>;
}

/** A portal's full-page message: a card with a heading. */
export function PortalMessage({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <div className="container acct-message" data-testid={testId}>
      <div className="card acct-message__card">
        <h1 className="acct-message__title">{title}</h1>
        {children}
      </div>
    </div>
  );
}

/** The page's shape while the account loads, so nothing jumps when it arrives. */
function PortalSkeleton() {
  return (
    <div className="container acct" aria-busy="true" data-testid="portal-loading">
      <p className="sr-only" role="status">
        Loading your account…
      </p>
      <div className="acct-skeleton acct-skeleton--title" />
      <div className="acct-grid">
        <div className="card acct-skeleton acct-skeleton--card" />
        <div className="card acct-skeleton acct-skeleton--card" />
        <div className="card acct-skeleton acct-skeleton--card" />
      </div>
      <div className="card acct-skeleton acct-skeleton--wide" />
    </div>
  );
}
