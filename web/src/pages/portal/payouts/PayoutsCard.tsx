import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import type { StatementPayout } from '../../../../../events/payouts';
import { Icon } from '../../../components/Icon';
import { monthLabel } from '../../../generation/format';
import type { PayoutsApi } from '../../../payouts/api';
import { accountText, earningsYears, money, onboardingReturnOf, payoutText } from '../../../payouts/format';
import { leaveForStripe } from '../../../payments/usePaymentsApi';
import type { PayoutsState } from './usePayouts';
import { Loading, LoadError } from '../../../components/Loading';
import { errorText } from '../../../lib/errorText';
import './PayoutsCard.css';
import { saveFile } from '../../../lib/saveFile';


/** The card's anchor: statements waiting for an account link here. */
const PAYOUTS_CARD_ID = 'payouts';

/**
 * The talent portal's payouts (docs/product.md#talent-portal): the payout account at Stripe and
 * what to do about it, each statement's payout, and a year's earnings as CSV. Coming back from
 * Stripe (`?payouts=return`) reads the account again; an expired link (`?payouts=refresh`) asks
 * for a new one and goes straight back.
 */
export function PayoutsCard({ api, payouts }: { api: PayoutsApi; payouts: PayoutsState }) {
  const id = useId();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  // Read once: the address is tidied right away, the message stays.
  const [returned] = useState(() => onboardingReturnOf(`?${params.toString()}`));
  const [leaving, setLeaving] = useState(returned === 'refresh');
  const [error, setError] = useState('');
  const cardRef = useRef<HTMLElement>(null);
  const { data, reload } = payouts;

  const goToStripe = async () => {
    setLeaving(true);
    setError('');
    try {
      const { url } = await api.startOnboarding();
      leaveForStripe(url);
    } catch (err) {
      setError(errorText(err, 'Stripe could not be reached. Try again in a moment.'));
      setLeaving(false);
    }
  };

  // Back from Stripe: the card has just read the account; tidy the address and show the card. An
  // expired link gets a new one (this page is replaced, so Back does not come back to it).
  const handled = useRef(false);
  useEffect(() => {
    if (!returned || handled.current) return;
    handled.current = true;
    void navigate('/talent-portal', { replace: true });
    cardRef.current?.scrollIntoView({ block: 'start' });
    if (returned === 'refresh')
      api.startOnboarding().then(
        ({ url }) => leaveForStripe(url, true),
        (err: unknown) => {
          setError(errorText(err, 'Stripe could not be reached. Try again in a moment.'));
          setLeaving(false);
        },
      );
  }, [api, navigate, returned]);

  // A page restored by Back after leaving for Stripe: the button is usable again.
  useEffect(() => {
    const onShow = (e: PageTransitionEvent) => e.persisted && setLeaving(false);
    window.addEventListener('pageshow', onShow);
    return () => window.removeEventListener('pageshow', onShow);
  }, []);

  const state = data ? accountText(data.account) : undefined;
  return (
    <section ref={cardRef} id={PAYOUTS_CARD_ID} className="card acct-card payouts" aria-labelledby={`${id}-title`} aria-busy={!data && !payouts.error} data-testid="payouts-card">
      <h2 id={`${id}-title`} className="acct-card__title">
        <Icon name="coins" size={20} /> Payouts
      </h2>
      {!data && !payouts.error && <Loading>Loading your payouts…</Loading>}
      {payouts.error && <LoadError message={payouts.error} onRetry={reload} />}
      {returned === 'refresh' && leaving && (
        <p role="status" className="payouts__back">
          Your setup link expired: opening a new one…
        </p>
      )}
      {returned === 'return' && data && (
        <p role="status" className="payouts__back" data-testid="payouts-returned">
          {data.account.state === 'active' ? 'Welcome back: your payouts are set up.' : 'Welcome back. Here is where your payout setup stands.'}
        </p>
      )}
      {data && state && (
        <>
          <div className="payouts__account" data-testid="payouts-account" data-state={data.account.state}>
            <p className={`payouts__chip payouts__chip--${state.tone}`} data-testid="payouts-state">
              {state.label}
              {data.account.state === 'active' && data.account.bankLast4 ? <span data-testid="payouts-bank"> · bank account ending {data.account.bankLast4}</span> : null}
            </p>
            <p data-testid="payouts-body">{state.body}</p>
            {state.action === 'set-up' || state.action === 'continue' ? (
              <div className="acct-actions">
                <button
                  type="button"
                  className="button button--primary"
                  onClick={() => void goToStripe()}
                  disabled={leaving}
                  data-testid="payouts-onboard"
                >
                  {leaving ? 'Opening Stripe…' : state.action === 'set-up' ? 'Set up payouts' : 'Continue setup'}
                  {leaving ? null : <Icon name="arrowRight" size={18} className="button__arrow" />}
                </button>
              </div>
            ) : null}
            {state.action === 'contact' && (
              <p>
                <a href="/contact">Write to us</a>
              </p>
            )}
            <p className="acct-error" role="alert">
              {error}
            </p>
          </div>
          <p className="acct-muted" data-testid="payouts-minimum">
            After each monthly close we pay what you are owed once it reaches {money(data.minimumCents)}; smaller amounts are added to the next payout.
          </p>
          {data.payouts.length > 0 && <StatementPayouts payouts={data.payouts} minimumCents={data.minimumCents} />}
          <EarningsDownload api={api} payouts={data.payouts} />
        </>
      )}
    </section>
  );
}

/** Each statement's payout, newest month first. */
function StatementPayouts({ payouts, minimumCents }: { payouts: StatementPayout[]; minimumCents: number }) {
  const id = useId();
  const sorted = [...payouts].sort((a, b) => b.month.localeCompare(a.month));
  return (
    <div className="payouts__statements">
      <h3 id={`${id}-title`} className="roy-subtitle">
        Payouts by statement
      </h3>
      <ul className="payouts__list" aria-labelledby={`${id}-title`} data-testid="statement-payouts">
        {sorted.map((p) => (
          <StatementPayoutItem key={p.statementId} payout={p} minimumCents={minimumCents} />
        ))}
      </ul>
    </div>
  );
}

/** One statement's payout: the month and amount, its state, and the date and reference, the minimum or the failure. */
export function StatementPayoutItem({ payout, minimumCents, as = 'li' }: { payout: StatementPayout; minimumCents: number; as?: 'li' | 'div' }) {
  const text = payoutText(payout, minimumCents);
  const Tag = as;
  return (
    <Tag className="payouts__item" data-testid="statement-payout" data-statement={payout.statementId} data-state={payout.state}>
      {as === 'li' && (
        <span className="payouts__month">
          {monthLabel(payout.month)} <span className="payouts__amount">{money(payout.statementCents)}</span>
        </span>
      )}
      <span className={`payouts__chip payouts__chip--${text.tone}`} data-testid="statement-payout-state">
        {text.label}
      </span>
      {text.detail && (
        <span className="payouts__detail" data-testid="statement-payout-detail">
          {text.detail}
        </span>
      )}
      {payout.state === 'awaiting-account' && as === 'div' && <a href={`#${PAYOUTS_CARD_ID}`}>Set up payouts</a>}
    </Tag>
  );
}

/** A year's statements and payouts as CSV, for the talent's taxes; fetched with the session's token. */
function EarningsDownload({ api, payouts }: { api: PayoutsApi; payouts: StatementPayout[] }) {
  const id = useId();
  const years = earningsYears(payouts);
  const [year, setYear] = useState(years[0]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const download = async () => {
    setBusy(true);
    setError('');
    try {
      const { filename, blob } = await api.earningsCsv(year);
      saveFile(filename, blob);
    } catch (err) {
      setError(errorText(err, 'The earnings could not be downloaded. Try again.'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="payouts__csv">
      <h3 className="roy-subtitle">Yearly earnings for your taxes</h3>
      <p className="acct-muted" id={`${id}-hint`}>
        Every statement of the year with its payout, as a CSV file.
      </p>
      <div className="payouts__csv-row">
        <label className="field__label" htmlFor={`${id}-year`}>
          Year
        </label>
        <select id={`${id}-year`} className="select" value={year} onChange={(e) => setYear(Number(e.target.value))} disabled={busy} data-testid="earnings-year">
          {years.map((y) => (
            <option key={y} value={y}>
              {y}
            </option>
          ))}
        </select>
        <button type="button" className="button button--secondary" onClick={() => void download()} disabled={busy} aria-describedby={`${id}-hint`} data-testid="earnings-csv">
          <Icon name="download" size={18} /> {busy ? 'Downloading…' : 'Download CSV'}
          <span className="sr-only"> of your {year} earnings</span>
        </button>
      </div>
      {error && (
        <p className="acct-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
