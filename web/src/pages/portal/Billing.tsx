import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { CREDIT_PACK_SIZES, MAX_PACK_QUANTITY, UPGRADE_FIRST_MESSAGE, type CreditPackSize } from '../../../../events/payment-values';
import type { BillingResponse, CheckoutStatus } from '../../../../events/payments';
import { PLAN_CHANGE_RULE, formatUsd, planById, type PlanId } from '../../../../events/plans';
import { creditsText } from '../../account/format';
import { Icon } from '../../components/Icon';
import { errorText } from '../../lib/errorText';
import type { PaymentsApi } from '../../payments/api';
import { FollowAbortedError, followCheckout } from '../../payments/confirm';
import { checkoutOutcomeText, packTotalCents, scheduledChangeText, subscriptionStateText, upgradeChoices } from '../../payments/format';
import { leaveForStripe } from '../../payments/usePaymentsApi';
import './Billing.css';

/**
 * Calls `reset` when the browser shows this page again from its back-forward cache (Back from
 * Stripe's page): a button left saying "Opening checkout…" would otherwise stay disabled.
 */
function useOnReturn(reset: () => void) {
  useEffect(() => {
    const shown = (e: PageTransitionEvent) => {
      if (e.persisted) reset();
    };
    window.addEventListener('pageshow', shown);
    return () => window.removeEventListener('pageshow', shown);
  }, [reset]);
}

/** `GET /me/billing`, read when the portal opens and again after a payment. */
export function useBilling(api: PaymentsApi) {
  const query = useQuery({ queryKey: ['billing'], queryFn: () => api.billing() });
  const { refetch } = query;
  const reload = useCallback(() => void refetch(), [refetch]);
  return { billing: query.data, error: query.isError ? errorText(query.error, 'Your billing could not be loaded.') : '', reload };
}

/** Opens Stripe's billing portal: the button's busy state and the refusal, if any. */
function useBillingPortal(api: PaymentsApi) {
  const [opening, setOpening] = useState(false);
  const [error, setError] = useState('');
  const open = useCallback(() => {
    setOpening(true);
    setError('');
    api.openBillingPortal().then(
      ({ url }) => leaveForStripe(url),
      (err: unknown) => {
        setOpening(false);
        setError(errorText(err, 'The billing portal could not open. Try again.'));
      },
    );
  }, [api]);
  useOnReturn(useCallback(() => setOpening(false), []));
  return { opening, error, open };
}

/**
 * The plan card: the current plan, the subscription's state and dates, "Manage billing" (Stripe's
 * billing portal) and the plans above this one. Without a subscription an upgrade goes to Checkout;
 * with one, plan changes go through the billing portal (Stripe prorates them).
 */
export function BillingCard({
  api,
  currentPlan,
  billing,
  loadError,
  openPortalNow,
}: {
  api: PaymentsApi;
  currentPlan: PlanId | undefined;
  billing: BillingResponse | undefined;
  loadError: string;
  /** Open the billing portal at once (`?billing=portal`, from the payment-failed email). */
  openPortalNow: boolean;
}) {
  const id = useId();
  const portal = useBillingPortal(api);
  const [starting, setStarting] = useState<PlanId>();
  const [checkoutError, setCheckoutError] = useState('');
  const opened = useRef(false);
  useOnReturn(useCallback(() => setStarting(undefined), []));
  useEffect(() => {
    if (!openPortalNow || opened.current) return;
    opened.current = true;
    portal.open();
  }, [openPortalNow, portal]);

  const planId = billing?.plan ?? currentPlan;
  const plan = planId ? planById(planId) : undefined;
  const sub = billing?.subscription;
  const live = sub && sub.state !== 'ended';
  const state = sub ? subscriptionStateText(sub) : undefined;
  const scheduled = sub && live ? scheduledChangeText(sub) : undefined;
  const choices = planId ? upgradeChoices(planId) : [];

  const upgrade = (to: PlanId) => {
    if (live) return portal.open();
    setStarting(to);
    setCheckoutError('');
    api.startCheckout({ kind: 'plan', plan: to as Exclude<PlanId, 'free'> }).then(
      ({ url }) => leaveForStripe(url),
      (err: unknown) => {
        setStarting(undefined);
        setCheckoutError(errorText(err, 'Checkout could not start. Try again.'));
      },
    );
  };
  const error = checkoutError || portal.error || loadError;

  return (
    <section className="card acct-card billing" aria-labelledby={`${id}-title`} data-testid="plan-card">
      <h2 id={`${id}-title`} className="acct-card__title">
        <Icon name="star" size={20} /> Plan
      </h2>
      {plan ? (
        <p className="acct-plan">
          <strong className="acct-plan__name" data-testid="plan-name">
            {plan.name}
          </strong>
          <span className="acct-muted" data-testid="plan-credits">
            {plan.monthlyPriceCents === 0 ? `${creditsText(plan.monthlyCredits)} a month` : `${formatUsd(plan.monthlyPriceCents)} a month · ${creditsText(plan.monthlyCredits)}`}
          </span>
        </p>
      ) : (
        <p className="acct-muted">No plan yet.</p>
      )}
      {sub && state && (
        <div className="billing__state" data-testid="subscription-state">
          <p className={`billing__chip billing__chip--${state.tone}`} data-testid="subscription-label">
            {state.label}
          </p>
          <p className="acct-muted" data-testid="subscription-body">
            {state.body}
          </p>
        </div>
      )}
      {scheduled && (
        <p className="acct-note" data-testid="scheduled-change">
          <Icon name="calendar" size={18} />
          <span>{scheduled}</span>
        </p>
      )}
      {openPortalNow && portal.opening && (
        <p className="acct-progress" role="status">
          <span className="acct-spinner" aria-hidden="true" /> Opening the billing portal…
        </p>
      )}
      {billing?.hasBillingAccount && (
        <p className="billing__manage">
          <button type="button" className="button button--secondary" disabled={portal.opening} onClick={portal.open}>
            {portal.opening ? 'Opening…' : 'Manage billing'}
          </button>
          <span className="acct-muted">Card, invoices and receipts, plan changes and cancelling, at Stripe.</span>
        </p>
      )}
      {billing && choices.length > 0 && (
        <div className="billing__upgrade">
          <h3 className="billing__subtitle">{planId === 'free' || !live ? 'Choose a plan' : 'Upgrade'}</h3>
          <ul className="billing__choices" aria-label="Plans you can upgrade to">
            {choices.map((p) => (
              <li key={p.id}>
                <button
                  type="button"
                  className={`billing__choice${p.mostPopular ? ' billing__choice--popular' : ''}`}
                  disabled={starting !== undefined || portal.opening}
                  onClick={() => upgrade(p.id)}
                >
                  <span className="billing__choice-name">
                    {starting === p.id ? (
                      'Opening checkout…'
                    ) : (
                      <>
                        <span className="sr-only">{live ? 'Upgrade to ' : 'Subscribe to '}</span>
                        {p.name}
                      </>
                    )}
                  </span>
                  <span className="billing__choice-facts">
                    {formatUsd(p.monthlyPriceCents)} a month · {creditsText(p.monthlyCredits)}
                  </span>
                  <Icon name="arrowRight" size={18} />
                </button>
              </li>
            ))}
          </ul>
          <p className="acct-muted" data-testid="plan-change-rule">
            {live ? PLAN_CHANGE_RULE : 'You pay at Stripe’s secure checkout and come back here.'} <Link to="/pricing">Compare plans</Link>
          </p>
        </div>
      )}
      <p className="acct-error" role="alert" data-testid="billing-error">
        {error}
      </p>
    </section>
  );
}

/** Extra credits: pack sizes and a quantity at the plan's price; a Free client is asked to upgrade first. */
export function BuyCreditsCard({ api, billing }: { api: PaymentsApi; billing: BillingResponse | undefined }) {
  const id = useId();
  const [pack, setPack] = useState<CreditPackSize>(CREDIT_PACK_SIZES[1]);
  const [quantity, setQuantity] = useState(1);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const price = billing?.extraCreditCents ?? null;
  useOnReturn(useCallback(() => setBusy(false), []));

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setError('');
    api.startCheckout({ kind: 'credits', pack, quantity }).then(
      ({ url }) => leaveForStripe(url),
      (err: unknown) => {
        setBusy(false);
        setError(errorText(err, 'Checkout could not start. Try again.'));
      },
    );
  };

  return (
    <section className="card acct-card buy-credits" aria-labelledby={`${id}-title`} data-testid="buy-credits">
      <h2 id={`${id}-title`} className="acct-card__title">
        <Icon name="coins" size={20} /> Buy credits
      </h2>
      {!billing ? (
        <p className="acct-muted">Loading your prices…</p>
      ) : price === null ? (
        <div className="acct-note" data-testid="upgrade-first">
          <Icon name="rocket" size={18} />
          <span>
            {UPGRADE_FIRST_MESSAGE} <Link to="/pricing">Compare plans</Link>
          </span>
        </div>
      ) : (
        <form className="buy-credits__form" onSubmit={submit} noValidate>
          <p className="acct-muted buy-credits__lead">
            {formatUsd(price)} a credit on {planById(billing.plan).name}. Bought credits never expire.
          </p>
          <fieldset className="buy-credits__packs" disabled={busy}>
            <legend className="field__label">Pack</legend>
            <div className="buy-credits__options">
              {CREDIT_PACK_SIZES.map((size) => (
                <label key={size} className="buy-credits__pack">
                  <input type="radio" name={`${id}-pack`} value={size} checked={pack === size} onChange={() => setPack(size)} />
                  <span className="buy-credits__pack-size">{size} credits</span>
                  <span className="buy-credits__pack-price">{formatUsd(size * price)}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <div className="buy-credits__row">
            <div className="field buy-credits__quantity">
              <label className="field__label" htmlFor={`${id}-quantity`}>
                Quantity
              </label>
              <select id={`${id}-quantity`} className="select" value={quantity} disabled={busy} onChange={(e) => setQuantity(Number(e.target.value))}>
                {Array.from({ length: MAX_PACK_QUANTITY }, (_, i) => i + 1).map((n) => (
                  <option key={n} value={n}>
                    {n}
                  </option>
                ))}
              </select>
            </div>
            <p className="buy-credits__total" aria-live="polite" data-testid="buy-credits-total">
              <span className="acct-muted">Total</span>
              <strong>{formatUsd(packTotalCents(pack, quantity, price))}</strong>
              <span className="acct-muted">for {creditsText(pack * quantity)}</span>
            </p>
          </div>
          <button type="submit" className="button button--primary" disabled={busy}>
            {busy ? 'Opening checkout…' : `Buy ${creditsText(pack * quantity)}`}
          </button>
        </form>
      )}
      <p className="acct-error" role="alert">
        {error}
      </p>
    </section>
  );
}

type Phase = { name: 'waiting'; confirming: boolean } | { name: 'slow' } | { name: 'done'; tone: 'ok' | 'muted'; text: string } | { name: 'failed'; text: string } | { name: 'gave-up' };

/**
 * Back from Checkout (`?checkout=<id>`): says the payment is being confirmed, with a progress
 * indicator, until the API says a verified Stripe event applied it; then refreshes the account
 * and says what was added. The redirect itself proves nothing.
 */
export function CheckoutReturn({ id, api, onSettled }: { id: string; api: PaymentsApi; onSettled: (status: CheckoutStatus) => Promise<void> }) {
  const [phase, setPhase] = useState<Phase>({ name: 'waiting', confirming: false });
  const settled = useRef(onSettled);
  useEffect(() => {
    settled.current = onSettled;
  }, [onSettled]);

  useEffect(() => {
    const abort = new AbortController();
    followCheckout({
      id,
      read: (x) => api.checkout(x),
      signal: abort.signal,
      onUpdate: (s) => setPhase((p) => (p.name === 'waiting' ? { name: 'waiting', confirming: s.state === 'confirming' } : p)),
      onSlow: () => setPhase({ name: 'slow' }),
    }).then(
      async (status) => {
        if (!status) return setPhase({ name: 'gave-up' });
        await settled.current(status).catch(() => undefined);
        setPhase({ name: 'done', ...checkoutOutcomeText(status) });
      },
      (err: unknown) => {
        if (err instanceof FollowAbortedError) return;
        setPhase({ name: 'failed', text: errorText(err, 'We could not check this payment.') });
      },
    );
    return () => abort.abort();
  }, [id, api]);

  const busy = phase.name === 'waiting' || phase.name === 'slow';
  const tone = phase.name === 'done' ? phase.tone : phase.name === 'failed' || phase.name === 'gave-up' ? 'warn' : 'info';
  return (
    <section className={`card checkout-return checkout-return--${tone}`} aria-label="Payment" aria-busy={busy} data-testid="checkout-return">
      <div className="checkout-return__icon" aria-hidden="true">
        {busy ? <span className="acct-spinner acct-spinner--large" /> : <Icon name={phase.name === 'done' && phase.tone === 'ok' ? 'check' : 'bell'} size={22} />}
      </div>
      <div className="checkout-return__body" role="status" data-testid="checkout-status">
        {phase.name === 'waiting' && (
          <>
            <p className="checkout-return__title">Your payment is being confirmed</p>
            <p className="acct-muted">{phase.confirming ? 'Stripe has taken your payment; we are adding it to your account.' : 'This usually takes a few seconds.'}</p>
            <progress className="checkout-return__progress" aria-label="Confirming your payment" />
          </>
        )}
        {phase.name === 'slow' && (
          <>
            <p className="checkout-return__title">Your payment is still being confirmed</p>
            <p className="acct-muted">It can take a few minutes. This page will update by itself when it is done; you can also leave and come back later.</p>
          </>
        )}
        {phase.name === 'done' && <p className="checkout-return__title">{phase.text}</p>}
        {phase.name === 'failed' && <p className="checkout-return__title">{phase.text}</p>}
        {phase.name === 'gave-up' && (
          <p className="checkout-return__title">We have not seen this payment confirmed yet. If you paid, your plan and credits will appear here once it is; reload the page later.</p>
        )}
      </div>
    </section>
  );
}

/** Back from a checkout that was cancelled: nothing was charged. */
export function CheckoutCancelled() {
  return (
    <section className="card checkout-return checkout-return--muted" aria-label="Payment" data-testid="checkout-cancelled">
      <div className="checkout-return__icon" aria-hidden="true">
        <Icon name="bell" size={22} />
      </div>
      <div className="checkout-return__body" role="status">
        <p className="checkout-return__title">Checkout cancelled: nothing was charged.</p>
        <p className="acct-muted">Your plan and credits are as they were.</p>
      </div>
    </section>
  );
}
