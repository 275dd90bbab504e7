import fc from 'fast-check';
import { safeNextPath, signInPath } from '../../../web/src/auth/next-path';
import { afterSignInPath, portalPathFor, roleFromGroups } from '../../../web/src/auth/portal-path';

describe('the page to return to after sign-in (?next=)', () => {
  it('keeps paths of this site', () => {
    expect(safeNextPath('/client-portal')).toBe('/client-portal');
    expect(safeNextPath('/talent/maya-chen?tab=work#top')).toBe('/talent/maya-chen?tab=work#top');
    expect(safeNextPath(' /create ')).toBe('/create');
  });

  it.each([
    'https://evil.example/',
    '//evil.example/path',
    '/\\evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    'javascript:alert(1)',
    'client-portal',
    '',
    null,
    undefined,
    `/${'a'.repeat(600)}`,
  ])('refuses %p', (raw) => {
    expect(safeNextPath(raw)).toBeUndefined();
  });

  it('never returns anything a browser would take to another site', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), fc.constantFrom('', '/', '//', '/\\', 'http:', 'https://x.example'), (tail, head) => {
        const out = safeNextPath(head + tail);
        if (out === undefined) return;
        expect(out.startsWith('/')).toBe(true);
        expect(out.startsWith('//')).toBe(false);
        // As the browser resolves it against the site's own address.
        expect(new URL(out, 'https://humanly.example').origin).toBe('https://humanly.example');
      }),
    );
  });

  it('builds the sign-in link with the page to return to', () => {
    expect(signInPath('/talent-portal')).toBe('/sign-in?next=%2Ftalent-portal');
    expect(signInPath('https://evil.example')).toBe('/sign-in');
  });
});

describe('where a signed-in person goes', () => {
  it('to the page that asked, else the portal of their role', () => {
    expect(afterSignInPath('/create', 'client')).toBe('/create');
    expect(afterSignInPath(null, 'client')).toBe('/client-portal');
    expect(afterSignInPath('//evil.example', 'talent')).toBe('/talent-portal');
    expect(afterSignInPath(undefined, null)).toBe('/portal');
    expect(portalPathFor('talent')).toBe('/talent-portal');
  });

  it("reads the role from the token's groups (admin is not a portal role)", () => {
    expect(roleFromGroups(['client'])).toBe('client');
    expect(roleFromGroups(['talent'])).toBe('talent');
    expect(roleFromGroups(['admin'])).toBeNull();
    expect(roleFromGroups(undefined)).toBeNull();
  });
});
