import { BRAND_NAME, LAUNCH_YEAR } from '../../brand';

export interface FaqItem {
  question: string;
  answer: string;
}

/** The seven waitlist questions. */
export const WAITLIST_FAQ: readonly FaqItem[] = [
  {
    question: 'What is the First 200?',
    answer: `It is our early-access list for creators, brands, agencies and startups. The first 200 people to sign up get their place held for launch in ${LAUNCH_YEAR}, and the first 100 on the list are invited into the beta before we open to everyone.`,
  },
  {
    question: 'Does joining cost anything?',
    answer:
      'No. Joining the waitlist is free and does not commit you to anything. You decide whether to buy credits once you have tried the platform.',
  },
  {
    question: 'How will pricing work?',
    answer:
      'Pricing is credit based: one credit is one image or one second of video. There is a free plan with 10 credits to try it, and paid monthly plans start at $35 for 80 credits, with extra credits available on every paid plan.',
  },
  {
    question: 'Can I use the images commercially?',
    answer:
      'Yes. Every plan includes a commercial-use licence, because every likeness on the platform is licensed by the person it belongs to. You can use what you create in ads, social posts, websites and campaigns.',
  },
  {
    question: 'Where do the faces come from?',
    answer: `From real people who chose to be here. Talent apply, consent to having an AI trained on their photos, can exclude industries they do not want to appear in (such as religion, politics or alcohol), and earn royalties every time their likeness is licensed. Nothing on ${BRAND_NAME} is scraped.`,
  },
  {
    question: 'When will I get access?',
    answer: `${BRAND_NAME} launches in ${LAUNCH_YEAR}. Beta invitations go out in waitlist order before then, so the earlier you join, the sooner you are in. We will email you when your spot opens.`,
  },
  {
    question: 'What do you do with my details?',
    answer:
      'We use your email to hold your place and tell you when your access is ready. Product updates and launch news are optional and you can unsubscribe at any time. We never sell your data; the Privacy Policy has the details.',
  },
];
