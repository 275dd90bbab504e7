import type { IconName } from '../../components/Icon';
import type { SceneKind } from './SceneIllustration';

/** The home's words and intervals (docs/product.md#home). */
export const HOME_WORDS = ['People', 'Creators', 'Artists', 'Talent', 'Individuals'] as const;
export const HOME_WORD_INTERVAL_MS = 3500;
export const HOME_CAROUSEL_INTERVAL_MS = 3500;

export const CAROUSEL_SCENES: readonly { kind: SceneKind; title: string; body: string }[] = [
  { kind: 'campaign', title: 'Brand campaigns', body: 'Launch-ready imagery with a real, consenting face behind it.' },
  { kind: 'lifestyle', title: 'Lifestyle moments', body: 'Everyday scenes for social and web, without booking a shoot.' },
  { kind: 'editorial', title: 'Editorial portraits', body: 'Magazine-style portraits for stories, features and covers.' },
  { kind: 'product', title: 'Product in hand', body: 'Show your product with the people your customers relate to.' },
  { kind: 'outdoor', title: 'Anywhere on location', body: 'Fitness, travel and outdoor scenes in any setting you describe.' },
];

export const HOW_IT_WORKS: readonly { icon: IconName; title: string; body: string }[] = [
  {
    icon: 'star',
    title: 'Apply as Talent',
    body: 'Tell us about yourself and upload 30 to 50 clear photos. We review every application by hand.',
  },
  {
    icon: 'sparkles',
    title: 'Train the AI',
    body: 'Once approved, we train a private model of your likeness. You decide where it may and may not appear.',
  },
  {
    icon: 'shield',
    title: 'Create with Confidence',
    body: 'Brands and creators generate images of you that come with a commercial-use licence, no guesswork.',
  },
  {
    icon: 'coins',
    title: 'Earn Royalties',
    body: 'You earn 20% to 30% on every license, paid monthly, with every generation visible in your portal.',
  },
];

export const WHY_DIFFERENT: readonly { icon: IconName; title: string; body: string }[] = [
  {
    icon: 'shield',
    title: 'Consent first',
    body: 'Every likeness belongs to a person who applied and agreed. No scraped faces, no lookalikes.',
  },
  {
    icon: 'coins',
    title: 'Fair pay',
    body: 'Talent earn a royalty on every license, every month, for as long as their likeness is used.',
  },
  {
    icon: 'search',
    title: 'Transparency',
    body: 'Talent see how often their likeness is used. Clients know exactly whose face they are licensing.',
  },
  {
    icon: 'users',
    title: 'Human-centered',
    body: 'Talent can remove their likeness at any time. The technology serves the people, not the other way round.',
  },
];
