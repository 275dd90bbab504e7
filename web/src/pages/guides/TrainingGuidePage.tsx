import { Link } from 'react-router';
import { BRAND_NAME } from '../../brand';
import { Icon, type IconName } from '../../components/Icon';
import { usePageTitle } from '../../lib/usePageTitle';
import { AVOID, CHECKLIST, PHOTO_RULES, REQUIREMENTS, SUGGESTED_MIX, VARIETY } from './guideContent';
import { PhotoTile } from '../../components/PhotoTile';
import './TrainingGuidePage.css';

type GuideVariant = 'main' | 'founders';

interface VariantCopy {
  title: string;
  eyebrow: string;
  lead: string;
  cta: { to: string; label: string; title: string; body: string };
  privacyLink: string;
  reviewTime: string;
}

const COPY: Record<GuideVariant, VariantCopy> = {
  main: {
    title: 'Training Image Best Practices',
    eyebrow: 'Photo guide for talent',
    lead: 'Your photos teach the AI what you look like. A varied, honest set gives clients images that look like you, and that means more licenses and more royalties.',
    cta: {
      to: '/talent-application',
      label: 'Apply to become talent',
      title: 'Ready to apply?',
      body: 'Tell us about yourself and the industries you want to exclude. We review every application within 15 business days.',
    },
    privacyLink: '/privacy',
    reviewTime: '15 business days',
  },
  founders: {
    title: 'Training Image Best Practices for Founding Talent',
    eyebrow: 'Photo guide for founding talent',
    lead: 'Your photos teach the AI what you look like. As founding talent you earn 35% royalties for life, so a strong first set pays off for years.',
    cta: {
      to: '/founding-talent-application#application-form',
      label: 'Apply as founding talent',
      title: 'Ready to secure your founding spot?',
      body: 'Only 30 founding spots exist, each with 35% royalties for life. We review founding applications in 15 to 20 business days.',
    },
    privacyLink: '/founding-talent-privacy',
    reviewTime: '15 to 20 business days',
  },
};

const FACTS: readonly { icon: IconName; value: string; label: string }[] = [
  { icon: 'sparkles', value: `${PHOTO_RULES.minPhotos}-${PHOTO_RULES.maxPhotos} photos`, label: `We recommend ${PHOTO_RULES.recommendedMin}-${PHOTO_RULES.recommendedMax}` },
  { icon: 'license', value: 'JPEG or PNG', label: 'No other file types' },
  { icon: 'search', value: `${PHOTO_RULES.minResolutionPx} px minimum`, label: 'On the shorter side' },
  { icon: 'users', value: 'Only you', label: 'Recent, unfiltered photos' },
];

/** /training-image-best-practices and /training-image-best-practices-founders. */
function TrainingGuidePage({ variant }: { variant: GuideVariant }) {
  const copy = COPY[variant];
  usePageTitle(copy.title);

  return (
    <div className="guide" data-testid="training-guide" data-variant={variant}>
      <section className="guide-hero" aria-labelledby="guide-title">
        <div className="container guide-hero__inner">
          <div className="guide-hero__copy">
            <p className="eyebrow">{copy.eyebrow}</p>
            <h1 id="guide-title">{copy.title}</h1>
            <p className="lead">{copy.lead}</p>
            <div className="guide-hero__actions">
              <Link to={copy.cta.to} className="button button--primary" data-testid="guide-cta-top">
                {copy.cta.label} <Icon name="arrowRight" size={18} className="button__arrow" />
              </Link>
              <Link to={{ hash: 'avoid' }} className="button button--secondary">
                What to avoid
              </Link>
            </div>
          </div>
          <div className="guide-hero__art" aria-hidden="true">
            <PhotoTile className="guide-hero__tile guide-hero__tile--1" angle="left" light="golden" outfit={1} />
            <PhotoTile className="guide-hero__tile guide-hero__tile--2" angle="right" light="indoor" framing="half" outfit={2} />
            <PhotoTile className="guide-hero__tile guide-hero__tile--3" framing="close" light="day" expression="laugh" />
            <span className="guide-hero__count">
              <strong>
                {PHOTO_RULES.recommendedMin}-{PHOTO_RULES.recommendedMax}
              </strong>
              photos
            </span>
          </div>
        </div>
      </section>

      <section className="guide-facts" aria-label="At a glance">
        <div className="container">
          <ul className="guide-facts__list" data-testid="guide-facts">
            {FACTS.map((fact) => (
              <li key={fact.value} className="guide-facts__item">
                <span className="icon-badge" aria-hidden="true">
                  <Icon name={fact.icon} size={22} />
                </span>
                <div>
                  <p className="guide-facts__value">{fact.value}</p>
                  <p className="guide-facts__label">{fact.label}</p>
                </div>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section id="how-many" className="section" aria-labelledby="how-many-title">
        <div className="container guide-count">
          <div className="guide-count__copy">
            <p className="eyebrow">How many photos</p>
            <h2 id="how-many-title">
              {PHOTO_RULES.minPhotos} to {PHOTO_RULES.maxPhotos} photos. {PHOTO_RULES.recommendedMin} to{' '}
              {PHOTO_RULES.recommendedMax} is the sweet spot.
            </h2>
            <p>
              We need at least {PHOTO_RULES.minPhotos} photos to train a model that looks like you, and accept up to{' '}
              {PHOTO_RULES.maxPhotos}. Past about {PHOTO_RULES.recommendedMax}, more photos rarely help: {PHOTO_RULES.recommendedMin}{' '}
              great, varied photos beat {PHOTO_RULES.maxPhotos} similar ones.
            </p>
          </div>
          <CountRange />
        </div>
      </section>

      <section id="variety" className="section section--muted" aria-labelledby="variety-title">
        <div className="container">
          <div className="section__header">
            <p className="eyebrow">Variety is everything</p>
            <h2 id="variety-title">Show us every side of you</h2>
            <p>The model learns from differences. Change one thing at a time: the angle, the light, your expression, the framing.</p>
          </div>
          <div className="variety">
            {VARIETY.map((group) => (
              <section key={group.id} className="variety__group card" aria-labelledby={`variety-${group.id}`}>
                <div className="variety__intro">
                  <h3 id={`variety-${group.id}`}>{group.title}</h3>
                  <p>{group.body}</p>
                </div>
                <ul className="tile-grid">
                  {group.tiles.map((tile) => (
                    <li key={tile.caption}>
                      <figure className="tile">
                        <PhotoTile {...tile} />
                        <figcaption>{tile.caption}</figcaption>
                      </figure>
                    </li>
                  ))}
                </ul>
              </section>
            ))}
          </div>

          <div className="mix card" data-testid="suggested-mix">
            <h3 className="mix__title">A good mix for a set of 40</h3>
            <div className="mix__bar" aria-hidden="true">
              {SUGGESTED_MIX.map((part) => (
                <span key={part.label} className={`mix__part ${part.className}`} style={{ flexGrow: part.share }}>
                  {part.share}%
                </span>
              ))}
            </div>
            <ul className="mix__legend">
              {SUGGESTED_MIX.map((part) => (
                <li key={part.label}>
                  <span className={`mix__swatch ${part.className}`} aria-hidden="true" />
                  {part.label}: about {part.share}% ({Math.round((part.share / 100) * 40)} photos)
                </li>
              ))}
            </ul>
          </div>
        </div>
      </section>

      <section id="avoid" className="section" aria-labelledby="avoid-title">
        <div className="container">
          <div className="section__header">
            <p className="eyebrow">What to avoid</p>
            <h2 id="avoid-title">Leave these photos out</h2>
            <p>Any one of these can make your model look less like you. When in doubt, leave it out.</p>
          </div>
          <ul className="avoid-grid" data-testid="avoid-list">
            {AVOID.map((item) => (
              <li key={item.flaw} className="avoid-card">
                <div className="avoid-card__image">
                  <PhotoTile flaw={item.flaw} light={item.flaw === 'filter' ? 'day' : 'indoor'} outfit={item.flaw === 'makeup' ? 4 : 0} />
                  <span className="avoid-card__badge" aria-hidden="true">
                    <svg viewBox="0 0 16 16" width="14" height="14" focusable="false">
                      <path d="M4 4l8 8M12 4l-8 8" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" />
                    </svg>
                  </span>
                </div>
                <div className="avoid-card__body">
                  <h3>
                    <span className="sr-only">Avoid: </span>
                    {item.title}
                  </h3>
                  <p>{item.body}</p>
                </div>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section id="requirements" className="section section--muted" aria-labelledby="requirements-title">
        <div className="container guide-reqs">
          <div>
            <p className="eyebrow">Technical requirements</p>
            <h2 id="requirements-title">The fine print, made simple</h2>
            <dl className="reqs" data-testid="requirements">
              {REQUIREMENTS.map((req) => (
                <div key={req.term} className="reqs__row">
                  <dt>{req.term}</dt>
                  <dd>{req.detail}</dd>
                </div>
              ))}
            </dl>
          </div>
          <div className="card checklist">
            <h2 className="checklist__title">Before you upload</h2>
            <ul className="bare-list checklist__list">
              {CHECKLIST.map((item) => (
                <li key={item}>
                  <span className="checklist__box" aria-hidden="true">
                    <Icon name="check" size={16} />
                  </span>
                  {item}
                </li>
              ))}
            </ul>
          </div>
        </div>
      </section>

      <section id="privacy" className="section" aria-labelledby="privacy-title">
        <div className="container">
          <div className="privacy-note" data-testid="guide-privacy">
            <span className="privacy-note__icon" aria-hidden="true">
              <Icon name="shield" size={32} />
            </span>
            <div>
              <h2 id="privacy-title">Your photos stay private</h2>
              <p>
                Your training photos are private personal data. {BRAND_NAME} uses them only to review your application
                and, with your consent, to train your own likeness model. They never appear in the Talent Library, are
                never shared with clients and are never sold. You can ask us to delete them at any time, unless a
                frozen-likeness contract you signed is in force. <Link to={copy.privacyLink}>Read our Privacy Policy</Link>.
              </p>
            </div>
          </div>
        </div>
      </section>

      <section className="guide-cta" aria-labelledby="guide-cta-title">
        <div className="container guide-cta__inner">
          <h2 id="guide-cta-title">{copy.cta.title}</h2>
          <p>{copy.cta.body}</p>
          <Link to={copy.cta.to} className="button guide-cta__button" data-testid="guide-cta">
            {copy.cta.label} <Icon name="arrowRight" size={18} className="button__arrow" />
          </Link>
        </div>
      </section>
    </div>
  );
}

/** A 0-80 scale: under 30 is not enough, 30-50 recommended, 51-80 accepted. */
function CountRange() {
  const { minPhotos, maxPhotos, recommendedMax } = PHOTO_RULES;
  const pct = (n: number) => `${(n / maxPhotos) * 100}%`;
  return (
    <figure className="count-range" data-testid="photo-count-range">
      <div className="count-range__track" aria-hidden="true">
        <span className="count-range__band count-range__band--low" style={{ width: pct(minPhotos) }} />
        <span className="count-range__band count-range__band--best" style={{ left: pct(minPhotos), width: pct(recommendedMax - minPhotos) }} />
        <span className="count-range__band count-range__band--ok" style={{ left: pct(recommendedMax), width: pct(maxPhotos - recommendedMax) }} />
        {[0, minPhotos, recommendedMax, maxPhotos].map((n) => (
          <span key={n} className="count-range__tick" style={{ left: pct(n) }}>
            {n}
          </span>
        ))}
      </div>
      <figcaption>
        <ul className="count-range__legend">
          <li>
            <span className="count-range__swatch count-range__band--low" aria-hidden="true" /> Fewer than {minPhotos}: not
            enough
          </li>
          <li>
            <span className="count-range__swatch count-range__band--best" aria-hidden="true" /> {minPhotos}-{recommendedMax}:
            recommended
          </li>
          <li>
            <span className="count-range__swatch count-range__band--ok" aria-hidden="true" /> {recommendedMax + 1}-{maxPhotos}:
            accepted
          </li>
        </ul>
      </figcaption>
    </figure>
  );
}

export const TrainingGuideMainPage = () => <TrainingGuidePage variant="main" />;
export const TrainingGuideFoundersPage = () => <TrainingGuidePage variant="founders" />;
