import type { Talent } from '../../events/talent';

/** A valid stored talent; override any field (tests of bad data pass wrong types on purpose). */
export function talentFactory(overrides: Partial<Record<keyof Talent, unknown>> = {}): Record<string, unknown> {
  const id = String(overrides.id ?? 'test-talent');
  return {
    id,
    name: 'Test Talent',
    image: `/talent/${id}.svg`,
    tagline: 'A tagline',
    bio: 'A short bio.',
    generationCount: 1,
    featured: false,
    tags: ['Portrait'],
    samples: [`/talent/${id}-sample-1.svg`],
    status: 'active',
    founding: false,
    royaltyPlan: 'standard-tiers',
    ...overrides,
  };
}
