import { signedInEntry } from '../../../web/src/auth/signed-in-entry';

// What /sign-in and /sign-up do with the session they find (docs/product.md#sign-in): a signed-in
// person with a `next` of this site goes straight there; any other `next` is never followed.
const signedIn = { loading: false, signedIn: true, role: 'client' as const, busy: false };

describe('sign-in and sign-up pages opened with a session', () => {
  it('send a signed-in person straight on to a next of this site', () => {
    expect(signedInEntry({ ...signedIn, next: '/checkout?plan=starter' })).toEqual({ show: 'redirect', to: '/checkout?plan=starter' });
    expect(signedInEntry({ ...signedIn, role: 'talent', next: '/talent-portal' })).toEqual({ show: 'redirect', to: '/talent-portal' });
  });

  it.each(['https://evil.example/checkout', '//evil.example/checkout', '/\\evil.example', '/\t/evil.example', 'javascript:alert(1)', 'checkout', '', null, undefined])(
    'never follow next=%p: they are told they are signed in, with their portal to continue to',
    (next) => {
      expect(signedInEntry({ ...signedIn, next })).toEqual({ show: 'signed-in', continueTo: '/client-portal' });
      expect(signedInEntry({ ...signedIn, role: 'talent', next })).toEqual({ show: 'signed-in', continueTo: '/talent-portal' });
      expect(signedInEntry({ ...signedIn, role: null, next })).toEqual({ show: 'signed-in', continueTo: '/portal' });
    },
  );

  it('wait for the session before choosing, so no form shows and then jumps away', () => {
    expect(signedInEntry({ loading: true, signedIn: false, role: null, next: '/checkout?plan=starter', busy: false })).toEqual({ show: 'wait' });
    expect(signedInEntry({ loading: true, signedIn: false, role: null, next: undefined, busy: false })).toEqual({ show: 'wait' });
  });

  it('show the form when signed out, whatever next says', () => {
    expect(signedInEntry({ loading: false, signedIn: false, role: null, next: '/checkout?plan=starter', busy: false })).toEqual({ show: 'form' });
    expect(signedInEntry({ loading: false, signedIn: false, role: null, next: '//evil.example', busy: false })).toEqual({ show: 'form' });
  });

  it('leave the page alone while it signs in itself (it moves on when done)', () => {
    expect(signedInEntry({ ...signedIn, loading: true, next: '/checkout?plan=starter', busy: true })).toEqual({ show: 'form' });
    expect(signedInEntry({ ...signedIn, next: '/checkout?plan=starter', busy: true })).toEqual({ show: 'form' });
  });
});
