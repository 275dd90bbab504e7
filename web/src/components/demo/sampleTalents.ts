/**
 * The three sample talents shown on marketing pages (home featured cards, the demo widget).
 * They match the catalog's seed entries by id; the catalog API stays the source of truth for
 * the Talent Library itself.
 */
export interface SampleTalent {
  id: string;
  name: string;
  /** As in the catalog seed (infra/seed/talent.json). */
  tagline: string;
  /** A few words for compact cards (the demo widget). */
  specialty: string;
  tags: readonly string[];
  generations: number;
  /** The fixed prompt the demo widget shows for this talent. */
  demoPrompt: string;
}

export const SAMPLE_TALENTS: readonly SampleTalent[] = [
  {
    id: 'maya-chen',
    name: 'Maya Chen',
    tagline: 'Warm, candid lifestyle moments with a creative spark',
    specialty: 'Lifestyle and creative',
    tags: ['Lifestyle', 'Authentic', 'Creative', 'Portrait'],
    generations: 12847,
    demoPrompt: 'Maya laughing in a sunlit café, holding a handmade ceramic coffee cup, soft morning light, shallow depth of field',
  },
  {
    id: 'jordan-rivers',
    name: 'Jordan Rivers',
    tagline: 'Confident, approachable professional for tech and business',
    specialty: 'Tech and business',
    tags: ['Professional', 'Technology', 'Diversity', 'Portrait'],
    generations: 9563,
    demoPrompt: 'Jordan presenting a product launch in a bright modern office, laptop in hand, confident and approachable smile',
  },
  {
    id: 'sofia-alvarez',
    name: 'Sofia Alvarez',
    tagline: "Bold editorial fashion with an eye for what's next",
    specialty: 'Fashion and editorial',
    tags: ['Fashion', 'Creative', 'Innovation', 'Lifestyle'],
    generations: 15234,
    demoPrompt: 'Sofia in a tailored camel blazer against a warm studio backdrop, editorial fashion portrait, confident pose',
  },
];

/** Reference image of a talent, served by the site (4:5 portrait). */
export function talentImageUrl(id: string): string {
  return `/talent/${id}.svg`;
}

export const TALENT_IMAGE_WIDTH = 400;
export const TALENT_IMAGE_HEIGHT = 500;

export function formatCount(n: number): string {
  return n.toLocaleString('en-US');
}
