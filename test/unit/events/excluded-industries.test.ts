import { excludedIndustryOf, excludedIndustryMessage } from '../../../events/generation-values';

describe('a prompt within a talent\'s excluded industries', () => {
  it('matches whole words of any case, plurals included, and names the industry', () => {
    expect(excludedIndustryOf('Friends toasting with BEERS on a terrace', ['alcohol'])).toBe('alcohol');
    expect(excludedIndustryOf('a portrait outside a church at dusk', ['religion'])).toBe('religion');
    expect(excludedIndustryOf('poster for the election  campaign', ['politics'])).toBe('politics');
    expect(excludedIndustryMessage('alcohol')).toMatch(/for alcohol\./);
  });

  it('leaves everyday advertising words and words that merely contain a term alone', () => {
    for (const prompt of ['a chocolate bar ad', 'gingerbread cookies on a table', 'a birthday party campaign', 'a sparkling water commercial']) {
      expect(excludedIndustryOf(prompt, ['alcohol', 'politics', 'religion'])).toBeUndefined();
    }
  });

  it('checks only the industries the talent excluded', () => {
    expect(excludedIndustryOf('a glass of wine', ['religion', 'politics'])).toBeUndefined();
    expect(excludedIndustryOf('a glass of wine', [])).toBeUndefined();
    expect(excludedIndustryOf('a glass of wine at a political party', ['alcohol', 'politics'])).toBe('alcohol');
  });
});
