import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { USE_PORTAL_MESSAGE } from '../../../../events/payment-values';
import { ApiError } from '../../api/client';
import { planById } from '../../../../events/plans';
import { Icon } from '../../components/Icon';
import { usePageTitle } from '../../lib/usePageTitle';
import { isPaidPlanId } from '../../payments/format';
import { leaveForStripe, usePaymentsApi } from '../../payments/usePaymentsApi';
import { PortalGate, PortalMessage, type SignedIn } from './PortalGate';

/**
 * /checkout?plan=starter (docs/product.md#pricing): the pricing page's "Choose" for a signed-in
 * client, and where sign-up brings a visitor back to. Starts a Checkout for the plan and sends the
 * browser to Stripe's hosted page; talent are told that plans are for client accounts.
 */
export function CheckoutPage() {
  usePageTitle('Checkout');
  return (
    <PortalGate role="client" wrongRole={() => <PlansAreForClients />}>
      {(auth) => <StartCheckout auth={auth} />}
    </PortalGate>
  );
}

function PlansAreForClients() {
  return (
    <PortalMessage title="Plans are for client accounts" testId="checkout-not-client">
      <p>You are signed in with a talent account. Talent never pay: plans and credits are for clients who create images.</p>
      <p>To create images yourself, sign up for a client account with another email address.</p>
      <Link to="/talent-portal" className="button button--primary">
        Go to the talent portal <Icon name="arrowRight" size={18} className="button__arrow" />
      </Link>
    </PortalMessage>
  );
}

function StartCheckout({ auth }: { auth: SignedIn }) {
  const api = usePaymentsApi(auth.getIdToken);
  const [params] = useSearchParams();
  const plan = params.get('plan');
  const [error, setError] = useState('');
  // A refusal (409: a subscription already, or this plan already) is not worth trying again.
  const [refused, setRefused] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const [opening, setOpening] = useState(false);
  const started = useRef(-1);

  useEffect(() => {
    if (!isPaidPlanId(plan) || started.current === attempt) return;
    started.current = attempt;
    setError('');
    api.startCheckout({ kind: 'plan', plan }).then(
      ({ url }) => leaveForStripe(url, true),
      (err: unknown) => {
        setRefused(err instanceof ApiError && err.status >= 400 && err.status < 500 && err.status !== 401 && err.status !== 429);
        setError(err instanceof Error ? err.message : 'Checkout could not start. Try again.');
      },
    );
  }, [api, plan, attempt]);

  if (!isPaidPlanId(plan)) {
    return (
      <PortalMessage title="Choose a plan first" testId="checkout-no-plan">
        <p>This address does not name a plan you can subscribe to.</p>
        <Link to="/pricing" className="button button--primary">
          See the plans
        </Link>
      </PortalMessage>
    );
  }
  const name = planById(plan).name;
  if (!error) {
    return (
      <PortalMessage title={`Subscribing to ${name}`} testId="checkout-starting">
        <p role="status" className="acct-progress">
          <span className="acct-spinner" aria-hidden="true" /> Taking you to secure checkout…
        </p>
      </PortalMessage>
    );
  }
  const subscribed = error === USE_PORTAL_MESSAGE;
  const openPortal = () => {
    setOpening(true);
    api.openBillingPortal().then(
      ({ url }) => leaveForStripe(url),
      (err: unknown) => {
        setOpening(false);
        setError(err instanceof Error ? err.message : 'The billing portal could not open. Try again.');
      },
    );
  };
  return (
    <PortalMessage title={subscribed ? 'You already have a plan' : `${name} could not start`} testId="checkout-problem">
      <p role="alert">{error}</p>
      <div className="acct-actions">
        {subscribed ? (
          <button type="button" className="button button--primary" disabled={opening} onClick={openPortal}>
            {opening ? 'Opening…' : 'Manage billing'}
          </button>
        ) : (
          !refused && (
            <button type="button" className="button button--primary" onClick={() => setAttempt((n) => n + 1)}>
              Try again
            </button>
          )
        )}
        <Link to="/client-portal" className={`button ${subscribed || !refused ? 'button--secondary' : 'button--primary'}`}>
          Go to your portal
        </Link>
      </div>
    </PortalMessage>
  );
}
