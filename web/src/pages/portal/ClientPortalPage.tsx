import { useCallback, useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import type { LedgerEntry } from '../../../../events/accounts';
import { PLANS, planById, type PlanId } from '../../../../events/plans';
import { LEDGER_KIND_LABELS, creditsText, formatCreditChange, formatCredits, formatDate, welcomeTitle } from '../../account/format';
import { Icon } from '../../components/Icon';
import { usePageTitle } from '../../lib/usePageTitle';
import { GenerationHistory } from './GenerationHistory';
import { PortalGate, type SignedIn } from './PortalGate';
import { PortalHeader } from './PortalHeader';
import { ProfileCard } from './ProfileCard';
import { useAccountApi } from './useAccountApi';
import { usePagedList } from './usePagedList';
import './AccountPortal.css';

/** /client-portal: a client's profile, plan, credits, ledger and generations (docs/product.md#client-portal). */
export function ClientPortalPage() {
  usePageTitle('Client Portal');
  return <PortalGate role="client">{(auth) => <ClientPortal auth={auth} />}</PortalGate>;
}

function ClientPortal({ auth }: { auth: SignedIn }) {
  const { me } = auth;
  const balance = me.credits?.balance ?? 0;
  return (
    <div className="acct" data-testid="client-portal-page">
      <PortalHeader
        auth={auth}
        eyebrow="Client Portal"
        title={welcomeTitle(me.profile.full_name)}
        lead="Your credits, your plan and everything you generate, in one place."
      />

      <div className="container acct-body">
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
          <PlanCard auth={auth} />
          <ProfileCard profile={me.profile} updateProfile={auth.updateProfile} />
        </div>

        <Ledger auth={auth} />

        <GenerationHistory auth={auth} />
      </div>
    </div>
  );
}

function PlanCard({ auth }: { auth: SignedIn }) {
  const id = useId();
  const api = useAccountApi(auth.getIdToken);
  const current = auth.me.plan ? planById(auth.me.plan.id) : undefined;
  const pending = auth.me.planRequest?.status === 'pending' ? auth.me.planRequest : undefined;
  const others = PLANS.filter((p) => p.id !== current?.id);
  const [choice, setChoice] = useState<PlanId | ''>('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string>();
  const [sent, setSent] = useState('');

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!choice) {
      setError('Choose the plan you would like.');
      return;
    }
    setSending(true);
    setError(undefined);
    setSent('');
    try {
      const request = await api.requestPlan(choice);
      await auth.refresh();
      setSent(`Request sent: ${planById(request.plan).name}. An administrator will change your plan and you will see it here.`);
      setChoice('');
    } catch (err) {
      setError(err instanceof Error ? err.message : 'Your request could not be sent. Try again.');
    } finally {
      setSending(false);
    }
  };

  return (
    <section className="card acct-card" aria-labelledby={`${id}-title`} data-testid="plan-card">
      <h2 id={`${id}-title`} className="acct-card__title">
        <Icon name="star" size={20} /> Plan
      </h2>
      {current ? (
        <p className="acct-plan">
          <strong className="acct-plan__name" data-testid="plan-name">
            {current.name}
          </strong>
          <span className="acct-muted" data-testid="plan-credits">
            {current.monthlyPriceCents === 0 ? `${creditsText(current.monthlyCredits)} to start` : `${creditsText(current.monthlyCredits)} a month`}
          </span>
        </p>
      ) : (
        <p className="acct-muted">No plan yet.</p>
      )}
      {pending && (
        <p className="acct-note" data-testid="pending-plan-request">
          <Icon name="calendar" size={18} />
          <span>
            You asked for <strong>{planById(pending.plan).name}</strong> on {formatDate(pending.requestedAt)}. It is waiting for an
            administrator.
          </span>
        </p>
      )}
      <form className="acct-plan-form" onSubmit={(e) => void submit(e)} noValidate>
        <div className="field">
          <label className="field__label" htmlFor={`${id}-plan`}>
            {pending ? 'Ask for a different plan' : 'Request a plan change'}
          </label>
          <select
            id={`${id}-plan`}
            className="select"
            value={choice}
            aria-describedby={`${id}-hint${error ? ` ${id}-error` : ''}`}
            aria-invalid={error ? true : undefined}
            onChange={(e) => setChoice(e.target.value as PlanId | '')}
          >
            <option value="">Choose a plan</option>
            {others.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name} — {creditsText(p.monthlyCredits)} a month
              </option>
            ))}
          </select>
          <p id={`${id}-hint`} className="field__hint">
            Payments are not open yet: an administrator changes plans for now. Send a request and we will set it for you.{' '}
            <Link to="/pricing">Compare plans</Link>
          </p>
        </div>
        <button type="submit" className="button button--secondary" disabled={sending}>
          {sending ? 'Sending…' : 'Send request'}
        </button>
      </form>
      <p id={`${id}-error`} className="acct-error" role="alert">
        {error}
      </p>
      <p className="acct-saved" role="status">
        {sent}
      </p>
    </section>
  );
}

function Ledger({ auth }: { auth: SignedIn }) {
  const api = useAccountApi(auth.getIdToken);
  const load = useCallback((cursor?: string) => api.ledger({ cursor }).then((page) => ({ items: page.entries, nextCursor: page.nextCursor })), [api]);
  const list = usePagedList<LedgerEntry, HTMLTableRowElement>({
    load,
    idOf: (entry) => entry.id,
    // Read again whenever the balance changes (a grant from an admin, a spend).
    reloadKey: auth.me.credits?.balance,
    noun: ['entry', 'entries'],
    failedMessage: 'Your credit history could not be loaded.',
  });
  const { items: entries, state, error, announce, focusId, firstNew } = list;

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
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )
      )}
      <p className="acct-error" role="alert">
        {error}
      </p>
      <p className="sr-only" role="status">
        {announce}
      </p>
      {list.more && state !== 'loading' && (
        <button type="button" className="button button--secondary acct-more" disabled={state === 'more'} onClick={() => void list.loadMore()}>
          {state === 'more' ? 'Loading…' : 'Load more'}
        </button>
      )}
      {error && entries.length === 0 && (
        <button type="button" className="button button--secondary acct-more" onClick={list.retry}>
          Try again
        </button>
      )}
    </section>
  );
}
