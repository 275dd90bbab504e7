import { useCallback, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { LedgerEntry } from '../../../../events/accounts';
import type { CheckoutStatus } from '../../../../events/payments';
import { LEDGER_KIND_LABELS, formatCreditChange, formatCredits, formatDate, welcomeTitle } from '../../account/format';
import { Icon } from '../../components/Icon';
import { usePageTitle } from '../../lib/usePageTitle';
import { usePaymentsApi } from '../../payments/usePaymentsApi';
import { BillingCard, BuyCreditsCard, CheckoutCancelled, CheckoutReturn, useBilling } from './Billing';
import { GenerationHistory } from './GenerationHistory';
import { PortalGate, type SignedIn } from './PortalGate';
import { PortalHeader } from './PortalHeader';
import { ProfileCard } from './ProfileCard';
import { useAccountApi } from './useAccountApi';
import { PagedListFooter, usePagedList } from './PagedList';
import './AccountPortal.css';

/**
 * /client-portal: a client's profile, plan and billing, credits, ledger and generations
 * (docs/product.md#client-portal). `?checkout=<id>` is the way back from Stripe Checkout (the page
 * waits for the payment to be confirmed), `?checkout=cancelled` a checkout given up, and
 * `?billing=portal` (the payment-failed email's link) opens Stripe's billing portal.
 */
export function ClientPortalPage() {
  usePageTitle('Client Portal');
  return <PortalGate role="client">{(auth) => <ClientPortal auth={auth} />}</PortalGate>;
}

function ClientPortal({ auth }: { auth: SignedIn }) {
  const { me, refresh } = auth;
  const balance = me.credits?.balance ?? 0;
  const payments = usePaymentsApi(auth.getIdToken);
  const { billing, error: billingError, reload: reloadBilling } = useBilling(payments);
  const [params] = useSearchParams();
  const navigate = useNavigate();
  // Read once: the address is tidied when the checkout settles, and the message stays.
  const [returned] = useState(() => params.get('checkout') ?? undefined);
  const [portalNow] = useState(() => params.get('billing') === 'portal');
  const settled = useCallback(
    async (_status: CheckoutStatus) => {
      reloadBilling();
      await refresh();
      void navigate('/client-portal', { replace: true });
    },
    [refresh, reloadBilling, navigate],
  );
  return (
    <div className="acct" data-testid="client-portal-page">
      <PortalHeader
        auth={auth}
        eyebrow="Client Portal"
        title={welcomeTitle(me.profile.full_name)}
        lead="Your credits, your plan and everything you generate, in one place."
      />

      <div className="container acct-body">
        {returned === 'cancelled' ? <CheckoutCancelled /> : returned && <CheckoutReturn id={returned} api={payments} onSettled={settled} />}
        <div className="acct-grid">
          <section className="card acct-card acct-balance" aria-labelledby="balance-title" data-testid="credit-balance">
            <h2 id="balance-title" className="acct-card__title">
              <Icon name="coins" size={20} /> Credit balance
            </h2>
            <p className="acct-balance__number">
              <span data-testid="balance-number">{formatCredits(balance)}</span>
              <span className="acct-balance__unit">{balance === 1 ? 'credit' : 'credits'} available</span>
            </p>
            <p className="acct-muted">1 credit = 1 image or 1 second of video.</p>
          </section>
          <BillingCard api={payments} currentPlan={me.plan?.id} billing={billing} loadError={billingError} openPortalNow={portalNow} />
          <ProfileCard profile={me.profile} updateProfile={auth.updateProfile} />
        </div>

        <BuyCreditsCard api={payments} billing={billing} />

        <Ledger auth={auth} />

        <GenerationHistory auth={auth} />
      </div>
    </div>
  );
}

function Ledger({ auth }: { auth: SignedIn }) {
  const api = useAccountApi(auth.getIdToken);
  const load = useCallback((cursor?: string) => api.ledger({ cursor }).then((page) => ({ items: page.entries, nextCursor: page.nextCursor })), [api]);
  const list = usePagedList<LedgerEntry, HTMLTableRowElement>({
    name: 'ledger',
    load,
    idOf: (entry) => entry.id,
    // Read again whenever the balance changes (a grant from an admin, a spend).
    reloadKey: auth.me.credits?.balance,
    noun: ['entry', 'entries'],
    failedMessage: 'Your credit history could not be loaded.',
  });
  const { items: entries, state, error, focusId, firstNew } = list;
  // Whether a grant's credits have expired, as of when the page opened.
  const [openedAt] = useState(() => Date.now());

  return (
    <section className="card acct-card acct-ledger" aria-labelledby="ledger-title" data-testid="credit-ledger">
      <h2 id="ledger-title" className="acct-card__title">
        <Icon name="license" size={20} /> Credit history
      </h2>
      <p className="acct-muted">Every change to your balance, newest first.</p>
      {state === 'loading' ? (
        <p role="status" className="acct-muted">
          Loading your credit history…
        </p>
      ) : entries.length === 0 && !error ? (
        <p className="acct-muted">No credit changes yet.</p>
      ) : (
        entries.length > 0 && (
          <table className="acct-table">
            <caption className="sr-only">Credit history, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Kind</th>
                <th scope="col" className="acct-table__num">
                  Change
                </th>
                <th scope="col" className="acct-table__num">
                  Balance after
                </th>
                <th scope="col">Reason</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr
                  key={entry.id}
                  data-testid="ledger-entry"
                  ref={entry.id === focusId ? firstNew : undefined}
                  tabIndex={entry.id === focusId ? -1 : undefined}
                >
                  <td data-label="Date">{formatDate(entry.at)}</td>
                  <td data-label="Kind" data-testid="ledger-kind">
                    <span className={`acct-kind acct-kind--${entry.kind}`}>{LEDGER_KIND_LABELS[entry.kind]}</span>
                  </td>
                  <td data-label="Change" className={`acct-table__num ${entry.credits > 0 ? 'acct-plus' : ''}`} data-testid="ledger-change">
                    {formatCreditChange(entry.credits)}
                  </td>
                  <td data-label="Balance after" className="acct-table__num" data-testid="ledger-balance">
                    {formatCredits(entry.balanceAfter)}
                  </td>
                  <td data-label="Reason" data-testid="ledger-reason">
                    {entry.reason}
                    {entry.expiresAt && entry.kind === 'grant' && (
                      <span className="acct-expiry" data-testid="ledger-expires">
                        {new Date(entry.expiresAt).getTime() > openedAt ? 'Expires' : 'Expired'} {formatDate(entry.expiresAt)}
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      )}
      <PagedListFooter list={list} />
    </section>
  );
}
