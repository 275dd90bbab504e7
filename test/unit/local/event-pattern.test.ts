import { matchesPattern } from '../../../infra/local/event-pattern';

const event = {
  source: 'humanly.marketplace',
  'detail-type': 'Waitlist.SignedUp',
  detail: { position: 12, email: 'ada@example.com', tags: ['a', 'b'], bucket: { name: 'photos' } },
};

describe('event patterns', () => {
  it('matches listed values and nested fields', () => {
    expect(matchesPattern({ source: ['humanly.marketplace'], 'detail-type': ['Waitlist.SignedUp'] }, event)).toBe(true);
    expect(matchesPattern({ 'detail-type': ['Other'] }, event)).toBe(false);
    expect(matchesPattern({ detail: { bucket: { name: ['photos'] } } }, event)).toBe(true);
    expect(matchesPattern({ detail: { tags: ['b'] } }, event)).toBe(true);
  });

  it('supports the content filters', () => {
    expect(matchesPattern({ detail: { email: [{ suffix: '@example.com' }] } }, event)).toBe(true);
    expect(matchesPattern({ detail: { email: [{ prefix: 'bob' }] } }, event)).toBe(false);
    expect(matchesPattern({ detail: { position: [{ numeric: ['>', 10, '<=', 12] }] } }, event)).toBe(true);
    expect(matchesPattern({ detail: { position: [{ numeric: ['<', 10] }] } }, event)).toBe(false);
    expect(matchesPattern({ detail: { missing: [{ exists: false }] } }, event)).toBe(true);
    expect(matchesPattern({ detail: { email: [{ exists: true }] } }, event)).toBe(true);
    expect(matchesPattern({ source: [{ 'anything-but': ['aws.s3'] }] }, event)).toBe(true);
    expect(matchesPattern({ source: [{ 'equals-ignore-case': 'HUMANLY.marketplace' }] }, event)).toBe(true);
    expect(matchesPattern({ detail: { email: [{ wildcard: 'ada@*.com' }] } }, event)).toBe(true);
  });

  it('refuses operators it does not know rather than guessing', () => {
    expect(() => matchesPattern({ source: [{ 'cidr': '10.0.0.0/8' }] }, event)).toThrow(/does not support/);
  });
});
