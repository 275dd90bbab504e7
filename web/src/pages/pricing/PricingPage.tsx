import { useSyncExternalStore } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Icon } from '../../components/Icon';
import { useStoredSignIn } from '../../lib/stored-sign-in';
import { usePageTitle } from '../../lib/usePageTitle';
import { planChoicePath } from '../../payments/format';
import { CREDIT_DEFINITION, PLANS, PLAN_CHANGE_RULE, PLAN_INCLUDES, extraCreditText, formatUsd } from '../../../../events/plans';
import './PricingPage.css';

const noSubscription = () => () => undefined;

/** False in the prerendered HTML and while the page takes it over, true after: what depends on the address waits for it. */
function useTakenOver(): boolean {
  return useSyncExternalStore(noSubscription, () => true, () => false);
}

/**
 * /pricing: the four credit plans (docs/product.md#pricing). A paid plan's button leads a
 * signed-in browser to /checkout (Stripe Checkout) and a signed-out one through sign-up and back
 * to the same choice; `?checkout=cancelled` is the way back from a checkout given up.
 */
export function PricingPage() {
  usePageTitle('Pricing');
  const signedIn = useStoredSignIn();
  const [params] = useSearchParams();
  const cancelled = useTakenOver() && params.get('checkout') === 'cancelled';

  return (
    <div className="pricing" data-testid="pricing-page">
      <section className="page-hero" aria-labelledby="pricing-title">
        <div className="container page-hero__inner">
          <p className="eyebrow">Pricing</p>
          <h1 id="pricing-title">
            Simple, <span className="nowrap">credit-based</span> pricing
          </h1>
          <p className="lead">Start free and upgrade when you need more. Every plan renews monthly.</p>
          <p className="pill pricing__credit" data-testid="credit-definition">
            <Icon name="coins" size={18} /> {CREDIT_DEFINITION}
          </p>
        </div>
      </section>

      <section className="section pricing__plans" aria-label="Plans">
        <div className="container">
          <div role="status" className="pricing__status">
            {cancelled && (
              <p className="pricing__notice" data-testid="checkout-cancelled">
                <Icon name="bell" size={18} /> Checkout cancelled: nothing was charged. Choose a plan when you are ready.
              </p>
            )}
          </div>
          <ul className="plans">
            {PLANS.map((plan) => (
              <li
                key={plan.id}
                className={`card plan ${plan.mostPopular ? 'plan--popular' : ''}`}
                data-testid={`plan-${plan.id}`}
              >
                {plan.mostPopular && (
                  <p className="plan__badge" data-testid="most-popular">
                    <Icon name="star" size={14} /> Most popular
                  </p>
                )}
                <h2 id={`plan-${plan.id}-name`} className="plan__name">
                  {plan.name}
                </h2>
                <p className="plan__description">{plan.description}</p>
                <p className="plan__price">
                  <span className="plan__amount" data-testid="plan-price">
                    {formatUsd(plan.monthlyPriceCents)}
                  </span>
                  <span className="plan__period">
                    <span aria-hidden="true">/month</span>
                    <span className="sr-only">per month</span>
                  </span>
                </p>
                <ul className="plan__facts">
                  <li data-testid="plan-credits">
                    <Icon name="check" size={18} />
                    <span>
                      <strong>{plan.monthlyCredits}</strong> credits per month
                    </span>
                  </li>
                  <li data-testid="plan-extra">
                    <Icon name={plan.extraCreditCents === null ? 'rocket' : 'coins'} size={18} />
                    <span>{extraCreditText(plan)}</span>
                  </li>
                </ul>
                <Link
                  to={planChoicePath(plan.id, signedIn)}
                  className={`button button--block ${plan.mostPopular ? 'button--primary' : 'button--secondary'}`}
                  data-testid="plan-choose"
                >
                  {plan.monthlyPriceCents === 0 ? 'Start free' : `Choose ${plan.name}`}
                </Link>
              </li>
            ))}
          </ul>
          <div className="pricing__rule" data-testid="plan-change-rule">
            <Icon name="calendar" size={20} />
            <p>
              <strong>Changing plans.</strong> {PLAN_CHANGE_RULE}
            </p>
          </div>
        </div>
      </section>

      <section className="section section--muted" aria-labelledby="includes-title">
        <div className="container">
          <div className="section__header">
            <p className="eyebrow">In every plan</p>
            <h2 id="includes-title">All plans include</h2>
          </div>
          <ul className="includes" data-testid="plan-includes">
            {PLAN_INCLUDES.map((item) => (
              <li key={item.title} className="includes__item">
                <span className="icon-badge" aria-hidden="true">
                  <Icon name="check" />
                </span>
                <div>
                  <h3>{item.title}</h3>
                  <p>{item.body}</p>
                </div>
              </li>
            ))}
          </ul>
          <p className="pricing__contact">
            Questions about plans or volume? <Link to="/contact">Contact us</Link> and we typically reply within 24 hours.
          </p>
        </div>
      </section>
    </div>
  );
}
