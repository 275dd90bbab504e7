import { toAttributeValue } from '../../../infra/lib/platform/seed';

describe('toAttributeValue', () => {
  it('maps JSON to DynamoDB attribute values as the low-level PutItem takes them', () => {
    expect(toAttributeValue({ id: 'a', n: 12847, ok: true, tags: ['x', 'y'], nested: { z: null, gone: undefined } })).toEqual({
      M: {
        id: { S: 'a' },
        n: { N: '12847' },
        ok: { BOOL: true },
        tags: { L: [{ S: 'x' }, { S: 'y' }] },
        nested: { M: { z: { NULL: true } } },
      },
    });
  });

  it('refuses values JSON cannot hold', () => {
    expect(() => toAttributeValue({ f: () => 1 })).toThrow(/cannot hold a function/);
  });
});
