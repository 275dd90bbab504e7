import { hasStoredSignIn } from '../../../web/src/lib/stored-sign-in';

/** A Storage over a Map, as the browser's localStorage answers. */
function storage(entries: Record<string, string>): Pick<Storage, 'length' | 'key' | 'getItem'> {
  const map = new Map(Object.entries(entries));
  return { length: map.size, key: (i) => [...map.keys()][i] ?? null, getItem: (k) => map.get(k) ?? null };
}

describe('the header’s signed-in hint (web/src/lib/stored-sign-in.ts)', () => {
  it('is on when Amplify holds the last signed-in user of an app client', () => {
    expect(hasStoredSignIn(storage({ theme: 'dark', 'CognitoIdentityServiceProvider.4k2client.LastAuthUser': '8f1c-user' }))).toBe(true);
  });

  it('is off with no sign-in, after sign-out, or with only other keys of the pool', () => {
    expect(hasStoredSignIn(storage({}))).toBe(false);
    expect(hasStoredSignIn(storage({ 'CognitoIdentityServiceProvider.4k2client.LastAuthUser': '' }))).toBe(false);
    // Device keys survive sign-out; they are not a sign-in.
    expect(hasStoredSignIn(storage({ 'CognitoIdentityServiceProvider.4k2client.8f1c-user.deviceKey': 'd' }))).toBe(false);
    expect(hasStoredSignIn(storage({ 'SomethingElse.LastAuthUser': 'x', 'CognitoIdentityServiceProvider.LastAuthUser': 'x' }))).toBe(false);
  });
});
