import { errorText } from '../../../admin/src/common/errorText';

describe('the console’s error text', () => {
  it('prefers the API’s {error}, then the error’s message, then the fallback', () => {
    expect(errorText(Object.assign(new Error('HTTP 409'), { body: { error: 'Already paid.' } }), 'Failed.')).toBe('Already paid.');
    expect(errorText(new Error('Network down'), 'Failed.')).toBe('Network down');
    expect(errorText(new Error(''), 'Failed.')).toBe('Failed.');
    expect(errorText(undefined, 'Failed.')).toBe('Failed.');
  });
});
