import { Link } from 'react-router';
import { BRAND_NAME } from '../../brand';
import { Icon, type IconName } from '../../components/Icon';
import { IconCards } from '../../components/IconCards';
import { usePageTitle } from '../../lib/usePageTitle';
import './EthosPage.css';

/** The five beliefs of the ethos page. */
const BELIEFS: readonly { icon: IconName; title: string; body: string }[] = [
  {
    icon: 'shield',
    title: 'Consent comes first',
    body: 'No likeness enters our library without the explicit, informed agreement of the person it belongs to. No scraping, no lookalikes, no exceptions.',
  },
  {
    icon: 'coins',
    title: 'People deserve a fair share',
    body: 'When your likeness earns money, you earn too. Talent receive royalties on every license, paid monthly.',
  },
  {
    icon: 'search',
    title: 'Transparency builds trust',
    body: 'Talent can see how their likeness is used. Clients know exactly whose face they are licensing and on what terms.',
  },
  {
    icon: 'heart',
    title: 'You stay in control',
    body: 'Talent can remove their likeness at any time, unless a frozen-likeness contract they signed with a brand is in force.',
  },
  {
    icon: 'users',
    title: 'Technology should serve humans',
    body: 'AI should widen what people can create, not replace the people it learns from. Every decision we make starts there.',
  },
];

/** /ethos: why the product exists. */
export function EthosPage() {
  usePageTitle(`Why ${BRAND_NAME} Exists`);

  return (
    <div className="ethos" data-testid="ethos-page">
      <section className="page-hero" aria-labelledby="ethos-title">
        <div className="container page-hero__inner">
          <p className="eyebrow">Our why</p>
          <h1 id="ethos-title">
            Why <span className="gradient-text">{BRAND_NAME}</span> Exists
          </h1>
          <p className="lead">
            AI learned to make pictures of people before anyone asked those people. We started {BRAND_NAME} to put them
            back at the centre.
          </p>
        </div>
      </section>

      <section className="section ethos-story" aria-labelledby="story-title">
        <div className="container ethos-story__inner">
          <div className="ethos-story__aside">
            <p className="eyebrow">Our story</p>
            <h2 id="story-title">A face is not free training data</h2>
          </div>
          <div className="ethos-story__body" data-testid="ethos-story">
            <p>
              Generative AI can now produce a convincing image of almost anyone. Most of the systems that do it were trained
              on photos taken from the internet, without asking the people in them and without paying them anything.
            </p>
            <p>
              We think that is backwards. Your face, your expressions and your presence are yours. If AI is going to use
              them, you should say yes first, set the limits, and share in what it earns.
            </p>
            <p>
              {BRAND_NAME} is the marketplace built on that idea. Talent license their likeness with consent and earn
              royalties every month. Creators, brands and agencies get images they can publish with a commercial licence
              and a clear conscience.
            </p>
          </div>
        </div>
      </section>

      <section className="section section--muted" aria-labelledby="beliefs-title">
        <div className="container">
          <div className="section__header">
            <p className="eyebrow">What we believe</p>
            <h2 id="beliefs-title">Five beliefs behind everything we build</h2>
          </div>
          <IconCards items={BELIEFS} className="beliefs" itemClassName={() => 'belief'} ordered data-testid="beliefs" />
        </div>
      </section>

      <section className="section" aria-labelledby="commitment-title">
        <div className="container">
          <div className="commitment" data-testid="commitment">
            <h2 id="commitment-title" className="commitment__title">
              Our commitment
            </h2>
            <blockquote className="commitment__quote">
              <p>
                We will never use a likeness without consent, never hide how a likeness is used, and never stop paying the
                people who make this work possible.
              </p>
            </blockquote>
            <p className="commitment__sign">The {BRAND_NAME} team</p>
          </div>
        </div>
      </section>

      <section className="section section--muted" aria-labelledby="ethos-cta-title">
        <div className="container ethos-cta">
          <h2 id="ethos-cta-title">Be part of AI that respects people</h2>
          <p className="lead">License your likeness on your terms, or find the right face for your next project.</p>
          <div className="page-hero__actions">
            <Link to="/talent-application" className="button button--primary" data-testid="cta-talent-application">
              Become {BRAND_NAME} Talent <Icon name="arrowRight" size={18} className="button__arrow" />
            </Link>
            <Link to="/talent" className="button button--secondary" data-testid="cta-talent-library">
              Browse the Talent Library
            </Link>
          </div>
        </div>
      </section>
    </div>
  );
}
