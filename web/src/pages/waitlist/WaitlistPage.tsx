import { Link } from 'react-router';
import { BRAND_NAME, LAUNCH_YEAR } from '../../brand';
import { Icon, type IconName } from '../../components/Icon';
import { usePageTitle } from '../../lib/usePageTitle';
import { WaitlistSignupForm } from './WaitlistSignupForm';
import { WAITLIST_FAQ } from './waitlistFaq';
import './WaitlistPage.css';

const WHY_CREATE: readonly { icon: IconName; title: string; body: string }[] = [
  {
    icon: 'shield',
    title: 'Real people, real consent',
    body: 'Every likeness belongs to a person who applied, agreed to the terms and can set limits on where they appear.',
  },
  {
    icon: 'license',
    title: 'Commercially licensed',
    body: 'A commercial-use licence comes with every plan, so you can publish without wondering who owns the face.',
  },
  {
    icon: 'coins',
    title: 'Simple credit pricing',
    body: 'One credit buys one image or one second of video. Start free, then pick a monthly plan that fits your volume.',
  },
  {
    icon: 'heart',
    title: 'Talent get paid',
    body: 'Royalties flow back to the people whose likeness you use, every month. Good work that is also fair work.',
  },
];

const HOW_IT_WORKS: readonly { icon: IconName; title: string; body: string }[] = [
  {
    icon: 'users',
    title: 'Choose your talent',
    body: 'Browse a library of real, verified people and pick the face that fits your brand.',
  },
  {
    icon: 'pencil',
    title: 'Describe the shot',
    body: 'Write a prompt and choose a style: photorealistic, portrait, commercial, editorial and more.',
  },
  {
    icon: 'download',
    title: 'Download and publish',
    body: 'Get high-quality images, licensed for commercial use from the moment they are made.',
  },
];

/** /first-200: the early-access waitlist (spec section 2, waitlist page). */
export function WaitlistPage() {
  usePageTitle('Join the waitlist');

  return (
    <div className="waitlist">
      <div className="waitlist__banner" role="note" aria-label="Announcement">
        <div className="container waitlist__banner-inner">
          <Icon name="rocket" size={18} />
          <span>
            <strong>Only 200 early-access spots.</strong> {BRAND_NAME} launches in {LAUNCH_YEAR}.
          </span>
          <Link to={{ hash: 'signup-form' }} className="waitlist__banner-link">
            Claim yours
          </Link>
        </div>
      </div>

      <section className="waitlist-hero" aria-labelledby="waitlist-title">
        <div className="container waitlist-hero__inner">
          <div className="waitlist-hero__copy">
            <p className="eyebrow">For creators, brands and agencies</p>
            <h1 id="waitlist-title">
              Be one of the <span className="gradient-text">First 200</span> to create with real people
            </h1>
            <p className="lead">
              Commercially licensed AI images of real, consenting talent. Lock in early access now and be first in line
              when we open the doors.
            </p>
            <div className="waitlist-hero__actions">
              <Link to={{ hash: 'signup-form' }} className="button button--primary">
                Lock in early access <Icon name="arrowRight" size={18} className="button__arrow" />
              </Link>
              <Link to={{ hash: 'how-it-works' }} className="button button--secondary">
                See how it works
              </Link>
            </div>
            <ul className="waitlist-hero__points">
              <li>
                <Icon name="check" size={18} /> Free to join
              </li>
              <li>
                <Icon name="check" size={18} /> First 100 get beta access
              </li>
              <li>
                <Icon name="check" size={18} /> Consent-first
              </li>
            </ul>
          </div>
          <HeroPreview />
        </div>
      </section>

      <section id="why-create" className="section" aria-labelledby="why-create-title">
        <div className="container">
          <div className="section__header">
            <p className="eyebrow">Why create with {BRAND_NAME}</p>
            <h2 id="why-create-title">AI imagery you can put your name to</h2>
            <p>
              Stock photos are slow and generic. Most AI images come with no idea whose face you are using. We built the
              third option.
            </p>
          </div>
          <ul className="feature-grid">
            {WHY_CREATE.map((item) => (
              <li key={item.title} className="card feature-card">
                <span className="icon-badge" aria-hidden="true">
                  <Icon name={item.icon} />
                </span>
                <h3>{item.title}</h3>
                <p>{item.body}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section id="how-it-works" className="section section--muted" aria-labelledby="how-it-works-title">
        <div className="container">
          <div className="section__header">
            <p className="eyebrow">How it works</p>
            <h2 id="how-it-works-title">From idea to licensed image in three steps</h2>
          </div>
          <ol className="steps">
            {HOW_IT_WORKS.map((step, i) => (
              <li key={step.title} className="card step">
                <span className="step__number" aria-hidden="true">
                  {i + 1}
                </span>
                <span className="icon-badge icon-badge--plum" aria-hidden="true">
                  <Icon name={step.icon} />
                </span>
                <h3>{step.title}</h3>
                <p>{step.body}</p>
              </li>
            ))}
          </ol>
        </div>
      </section>

      <section className="section waitlist-signup" aria-label="Sign up">
        <div className="container waitlist-signup__grid">
          <WaitlistSignupForm />
          <aside className="card next-card" aria-labelledby="next-title" data-testid="what-happens-next">
            <h2 id="next-title" className="next-card__title">
              What happens next
            </h2>
            <ol className="next-list">
              <li>
                <span className="next-list__icon" aria-hidden="true">
                  <Icon name="star" size={20} />
                </span>
                <div>
                  <h3>Your spot is saved</h3>
                  <p>You will see your place on the list straight away.</p>
                </div>
              </li>
              <li>
                <span className="next-list__icon" aria-hidden="true">
                  <Icon name="bell" size={20} />
                </span>
                <div>
                  <h3>We keep you posted</h3>
                  <p>If you opt in, you get occasional product updates and launch news. Nothing more.</p>
                </div>
              </li>
              <li>
                <span className="next-list__icon" aria-hidden="true">
                  <Icon name="rocket" size={20} />
                </span>
                <div>
                  <h3>Your invitation arrives</h3>
                  <p>The first 100 are invited to the beta before launch; everyone on the list gets in ahead of the public.</p>
                </div>
              </li>
            </ol>
          </aside>
        </div>
      </section>

      <section id="faq" className="section section--muted" aria-labelledby="faq-title">
        <div className="container faq">
          <div className="section__header">
            <p className="eyebrow">FAQ</p>
            <h2 id="faq-title">Questions, answered</h2>
          </div>
          <div className="faq__list" data-testid="faq">
            {WAITLIST_FAQ.map((item) => (
              <details key={item.question} className="faq__item">
                <summary className="faq__question">
                  <span>{item.question}</span>
                  <svg className="faq__chevron" viewBox="0 0 16 16" width="18" height="18" aria-hidden="true" focusable="false">
                    <path d="M4 6l4 4 4-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
                  </svg>
                </summary>
                <p className="faq__answer">{item.answer}</p>
              </details>
            ))}
          </div>
        </div>
      </section>
    </div>
  );
}

/** Decorative mock of a licensed generation; conveys the product without a network image. */
function HeroPreview() {
  return (
    <div className="hero-preview" aria-hidden="true">
      <div className="hero-preview__card">
        <div className="hero-preview__image">
          <svg viewBox="0 0 200 200" className="hero-preview__person" focusable="false">
            <defs>
              <linearGradient id="hp-skin" x1="0" y1="0" x2="0" y2="1">
                <stop offset="0" stopColor="#f7c9a8" />
                <stop offset="1" stopColor="#e4a27e" />
              </linearGradient>
              <linearGradient id="hp-top" x1="0" y1="0" x2="1" y2="1">
                <stop offset="0" stopColor="#7e2a6b" />
                <stop offset="1" stopColor="#4c1d45" />
              </linearGradient>
            </defs>
            <path d="M52 200c4-42 24-64 48-64s44 22 48 64z" fill="url(#hp-top)" />
            <rect x="88" y="112" width="24" height="30" rx="10" fill="#e4a27e" />
            <ellipse cx="100" cy="86" rx="34" ry="40" fill="url(#hp-skin)" />
            <path d="M64 84c-2-32 18-48 38-48 22 0 38 16 36 46-8-14-20-22-36-24-14 6-26 14-38 26z" fill="#3b2418" />
          </svg>
          <span className="hero-preview__chip hero-preview__chip--top">
            <Icon name="shield" size={16} /> Consent verified
          </span>
        </div>
        <div className="hero-preview__meta">
          <div>
            <p className="hero-preview__name">Example talent · Lifestyle</p>
            <p className="hero-preview__prompt">“Morning coffee in a sunlit studio, editorial style”</p>
          </div>
          <span className="hero-preview__badge">
            <Icon name="license" size={16} /> Licensed
          </span>
        </div>
      </div>
      <div className="hero-preview__float">
        <Icon name="coins" size={18} />
        <span>
          <strong>1 credit</strong> per image
        </span>
      </div>
    </div>
  );
}
