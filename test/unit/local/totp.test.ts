import { otpauthUri, totpCode } from '../../../infra/local/totp';

// RFC 6238 appendix B (SHA-1 secret "12345678901234567890"), last six digits of each code.
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP codes for the twin admin', () => {
  it.each([
    [59, '287082'],
    [1_111_111_109, '081804'],
    [1_234_567_890, '005924'],
    [20_000_000_000, '353130'],
  ])('at %i s gives %s', (seconds, code) => {
    expect(totpCode(RFC_SECRET, seconds * 1000)).toBe(code);
  });

  it('refuses a secret that is not base32, naming the character', () => {
    expect(() => totpCode('ABC1')).toThrow('contains "1"');
  });

  it('builds the otpauth address an authenticator app reads', () => {
    expect(otpauthUri(RFC_SECRET, 'admin@humanly.local')).toBe(
      `otpauth://totp/Humanly%20review%20console:admin%40humanly.local?secret=${RFC_SECRET}&issuer=Humanly%20review%20console`,
    );
  });
});
