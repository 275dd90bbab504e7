import { Link } from 'react-router';
import { BRAND_NAME } from '../../brand';
import { ApplicationSection } from '../../components/application/ApplicationSection';
import { BadgeList } from '../../components/BadgeList';
import { Hero, HeroActions, HeroPoints } from '../../components/Hero';
import { Icon, type IconName } from '../../components/Icon';
import { IconCards } from '../../components/IconCards';
import { usePageTitle } from '../../lib/usePageTitle';
import { REVIEW_TIME, ROYALTY_TIERS } from './talentApplication';
import { TalentApplicationForm } from './TalentApplicationForm';
import './TalentApplicationPage.css';

const STEPS: readonly { icon: IconName; title: string; body: string }[] = [
  {
    icon: 'pencil',
    title: 'Apply',
    body: 'Tell us about yourself, choose the industries you never want to appear in, and prepare 30-50 photos with our guide.',
  },
  {
    icon: 'sparkles',
    title: 'Get reviewed and trained',
    body: `A person reviews your application within ${REVIEW_TIME}. If you are accepted, we train a private AI model of your likeness.`,
  },
  {
    icon: 'coins',
    title: 'Earn royalties',
    body: 'Clients license images of you for their work. You earn up to 30% of every license, paid monthly.',
  },
];

const BENEFITS: readonly { icon: IconName; title: string; body: string }[] = [
  { icon: 'shield', title: 'Consent first', body: 'Nothing happens without your explicit consent, and you can withdraw it.' },
  { icon: 'license', title: 'Your limits, enforced', body: 'Exclude religion, politics or alcohol and we never license your likeness there.' },
  { icon: 'coins', title: 'Fair, tiered pay', body: '20% to 30% royalties on every license, paid monthly. The more you are used, the more you earn.' },
  { icon: 'search', title: 'Full transparency', body: 'See every generation and license of your likeness, and what it earned you.' },
  { icon: 'heart', title: 'Leave any time', body: 'Remove your likeness whenever you like, unless you signed a frozen-likeness contract with a brand.' },
  { icon: 'star', title: 'Exclusive deals', body: 'Brands can freeze your likeness for exclusive campaigns, on terms you agree to.' },
];

const NEXT: readonly { icon: IconName; title: string; body: string }[] = [
  { icon: 'calendar', title: `Review within ${REVIEW_TIME}`, body: 'A member of our team reviews every application personally.' },
  { icon: 'mail', title: 'You hear from us', body: 'We email you our decision, whichever way it goes.' },
  { icon: 'sparkles', title: 'Your likeness model is trained', body: 'We train your private model from your photos and you approve your profile.' },
  { icon: 'coins', title: 'You start earning', body: 'Your profile goes live in the Talent Library and royalties are paid monthly.' },
];

/** /talent-application (docs/product.md#talent-application). */
export function TalentApplicationPage() {
  usePageTitle('Become Talent');

  return (
    <div className="ta-page" data-testid="talent-application-page">
      <Hero titleId="ta-title" className="ta-hero" art={<HeroEarnings />}>
        <p className="eyebrow">Become {BRAND_NAME} Talent</p>
        <h1 id="ta-title">
          Your likeness. Your rules. <span className="gradient-text">Your royalties.</span>
        </h1>
        <p className="lead">
          License your likeness to train ethical AI and earn up to 30% royalties every time a brand or creator licenses an
          image of you. Consent first, fair pay, full transparency.
        </p>
        <HeroActions>
          <Link to={{ hash: 'application-form' }} className="button button--primary" data-testid="apply-now">
            Apply Now <Icon name="arrowRight" size={18} className="button__arrow" />
          </Link>
          <Link to="/training-image-best-practices" className="button button--secondary">
            Read the photo guide
          </Link>
        </HeroActions>
        <HeroPoints points={['Free to apply', 'Paid monthly', 'Leave any time']} />
      </Hero>

      <aside className="ta-founding" aria-label="Founding talent offer">
        <div className="container ta-founding__inner">
          <Icon name="star" size={20} />
          <p>
            <strong>Applying before launch?</strong> Founding talent earn 35% royalties for life. Only 30 spots.
          </p>
          <Link to="/founding-talent-application" className="ta-founding__link">
            Become founding talent
          </Link>
        </div>
      </aside>

      <section id="how-it-works" className="section" aria-labelledby="ta-steps-title">
        <div className="container">
          <div className="section__header">
            <p className="eyebrow">How it works</p>
            <h2 id="ta-steps-title">Three steps from application to royalties</h2>
          </div>
          <IconCards items={STEPS} className="icon-cards--three" numbered="peach" stepLabels data-testid="talent-steps" />
          <p className="ta-steps__guide">
            <Icon name="sparkles" size={18} /> Great photos make a great model.{' '}
            <Link to="/training-image-best-practices" data-testid="photo-guide-link">
              See our training image best practices
            </Link>
          </p>
        </div>
      </section>

      <section id="earnings" className="section section--muted" aria-labelledby="ta-earnings-title">
        <div className="container">
          <div className="section__header">
            <p className="eyebrow">Earnings</p>
            <h2 id="ta-earnings-title">The more you are licensed, the more you earn</h2>
            <p>Royalty rates rise with the number of licenses in a calendar month. Royalties are paid monthly.</p>
          </div>
          <ol className="ta-tiers" data-testid="royalty-tiers">
            {ROYALTY_TIERS.map((tier, i) => (
              <li key={tier.rate} className={`ta-tier ta-tier--${i + 1}`}>
                <p className="ta-tier__rate">
                  {tier.rate}
                  <span>%</span>
                </p>
                <h3 className="ta-tier__band">{tier.band}</h3>
                <p className="ta-tier__detail">{tier.detail}</p>
                <span className="ta-tier__track" aria-hidden="true">
                  {ROYALTY_TIERS.map((_, j) => (
                    <span key={j} className={j === i ? 'is-current' : j < i ? 'is-past' : undefined} />
                  ))}
                </span>
              </li>
            ))}
          </ol>
          <div className="ta-example card">
            <h3>Example: 120 licenses in a month</h3>
            <p>
              Your first 50 licenses earn 20% and the next 70 earn 25%. Each rate applies to the licenses in its band, and
              the count starts again every month.
            </p>
          </div>
        </div>
      </section>

      <section id="benefits" className="section" aria-labelledby="ta-benefits-title">
        <div className="container">
          <div className="section__header">
            <p className="eyebrow">Why {BRAND_NAME}</p>
            <h2 id="ta-benefits-title">Built for the people behind the pictures</h2>
          </div>
          <BadgeList items={BENEFITS} className="ta-benefits" itemClassName="ta-benefit" plum data-testid="talent-benefits" />
        </div>
      </section>

      <ApplicationSection
        id="apply"
        form={<TalentApplicationForm />}
        next={NEXT}
        nextTitleId="ta-next-title"
        nextFooter={
          <>
            Get your photos ready: <Link to="/training-image-best-practices">read the photo guide</Link>.
          </>
        }
      />
    </div>
  );
}

/** Decorative mock of a talent's month: a licensed image and the royalties it earned. */
function HeroEarnings() {
  return (
    <div className="ta-hero__art" aria-hidden="true">
      <div className="ta-hero__photo">
        {/* The photo guide's PhotoTile, drawn once into a file by web/scripts/hero-art.ts: no drawing code to load for it. */}
        <img src="/talent-application-photo.svg" alt="" width={400} height={400} className="ta-hero__image" />
        <span className="status-chip ta-hero__chip">
          <Icon name="shield" size={16} /> Consent on file
        </span>
      </div>
      <div className="ta-hero__card">
        <p className="ta-hero__card-label">Royalties this month</p>
        <p className="ta-hero__card-value">$1,284</p>
        <div className="ta-hero__bars">
          {[35, 48, 42, 60, 72, 66, 88].map((h, i) => (
            <span key={i} style={{ height: `${h}%` }} />
          ))}
        </div>
        <p className="ta-hero__card-foot">
          <Icon name="calendar" size={14} /> Paid monthly
        </p>
      </div>
    </div>
  );
}
