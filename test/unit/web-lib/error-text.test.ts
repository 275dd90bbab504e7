import { errorText } from '../../../web/src/lib/errorText';

describe('the site’s error text', () => {
  it('is the error’s own message, else the fallback', () => {
    expect(errorText(new Error('Your session has ended.'), 'Failed.')).toBe('Your session has ended.');
    expect(errorText(new Error(''), 'Failed.')).toBe('Failed.');
    expect(errorText('offline', 'Failed.')).toBe('Failed.');
  });
});
