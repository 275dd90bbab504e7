import { LAUNCH_YEAR } from '../../brand';
import type { IconName } from '../../components/Icon';
import { LIMITS } from '../../lib/application/limits';

/** The founding hero's words turn every 3.5 s; its carousel every 3400 ms (docs/product.md#intervals). */
export const FOUNDING_WORDS = ['likeness', 'image', 'smile', 'face'] as const;
export const FOUNDING_WORD_INTERVAL_MS = 3500;
export const FOUNDING_CAROUSEL_INTERVAL_MS = 3400;

export const BENEFITS: readonly { icon: IconName; title: string; body: string }[] = [
  {
    icon: 'coins',
    title: `${LIMITS.royaltyPercent}% lifetime royalties`,
    body: `Founding talent earn ${LIMITS.royaltyPercent}% on every license of their likeness, for life: more than any standard tier. Paid monthly.`,
  },
  {
    icon: 'license',
    title: 'Transparent terms',
    body: 'Plain-language terms, every generation of your likeness visible to you, and industries you can rule out for good.',
  },
  {
    icon: 'users',
    title: 'Founding member community',
    body: 'A small group of people shaping the platform with us: early features, direct access to the team, a say in what comes next.',
  },
];

export const STEPS: readonly { icon: IconName; title: string; body: string }[] = [
  {
    icon: 'download',
    title: `Submit ${LIMITS.minImages}-${LIMITS.maxImages} photos`,
    body: 'Fill in the form and upload clear photos of yourself: different angles, lighting and expressions.',
  },
  {
    icon: 'calendar',
    title: `Review in ${LIMITS.reviewTime}`,
    body: 'A person on our team reviews your details and photos, and we email you the decision.',
  },
  {
    icon: 'sparkles',
    title: 'Start earning',
    body: `Once accepted, your private model is trained and you earn ${LIMITS.royaltyPercent}% on every license from launch in ${LAUNCH_YEAR}.`,
  },
];

export const NEXT: readonly { icon: IconName; title: string; body: string }[] = [
  { icon: 'calendar', title: 'Review within 3 weeks', body: 'We check your details and photos personally and email you our decision.' },
  {
    icon: 'star',
    title: `Secure the ${LIMITS.royaltyPercent}% rate`,
    body: `If you are accepted, your ${LIMITS.royaltyPercent}% lifetime royalty is locked in: one of only ${LIMITS.spots} founding spots.`,
  },
  { icon: 'users', title: 'Join the community', body: 'Meet the other founding talent and help shape the platform before launch.' },
];

export const FOUNDING_FAQ: readonly { question: string; answer: string }[] = [
  {
    question: 'What is a founding talent?',
    answer: `One of the first ${LIMITS.spots} people to license their likeness with us before launch. Founding talent keep a ${LIMITS.royaltyPercent}% royalty rate for life and help shape the platform.`,
  },
  {
    question: 'How many founding spots are there?',
    answer: `Only ${LIMITS.spots}. They go to the first ${LIMITS.spots} applicants who meet the criteria, in the order they applied. Once they are taken, new talent join on the standard royalty tiers.`,
  },
  {
    question: 'Does it cost anything to apply?',
    answer: 'No. Applying is free, and so is being accepted. You never pay to license your likeness.',
  },
  {
    question: 'How and when are royalties paid?',
    answer: `Royalties are paid monthly. As founding talent you earn ${LIMITS.royaltyPercent}% of every license of your likeness, for life; standard talent earn 20% to 30% depending on monthly volume.`,
  },
  {
    question: 'Can I remove my likeness later?',
    answer: `Yes, at any time, unless a frozen-likeness contract with a brand is in force; then removal waits until that contract ends. Removing your likeness ends your founding status and you lose the ${LIMITS.royaltyPercent}% lifetime rate.`,
  },
  {
    question: 'What photos do I need?',
    answer: `Between ${LIMITS.minImages} and ${LIMITS.maxImages} recent photos of you alone (30-50 is ideal), in JPEG or PNG, with varied angles, lighting and expressions. You can upload them one by one or as a zip. Our photo guide for founders shows what works.`,
  },
  {
    question: 'Who can apply?',
    answer: 'Anyone aged 18 or over who owns the rights to their photos and wants to license their likeness on fair, transparent terms.',
  },
  {
    question: 'How long does the review take?',
    answer: `We review every application by hand within ${LIMITS.reviewTime}, about 3 weeks, and email you our decision either way.`,
  },
  {
    question: 'Can I keep my likeness out of some industries?',
    answer: 'Yes. Tick religion, politics or alcohol on the form and your likeness will never be licensed there. You can change this later.',
  },
  {
    question: 'When does the talent portal open?',
    answer: `The talent portal opens at launch in ${LAUNCH_YEAR}. Accepted founding talent get their invitation by email and can see every generation and payout there.`,
  },
];
