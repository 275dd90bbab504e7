import { clientIpOf, counterKey, inMemoryRateLimiter } from '../../../functions/shared/rate-limit';
import type { HttpEvent } from '../../../functions/shared/http';

const rule = { name: 'signup.email', subject: 'Ada@Example.com', limit: 3, windowSeconds: 600, message: 'Too many signups.' };

describe('rate limits', () => {
  it('refuses the hit after the limit within one window and allows it again in the next', async () => {
    let now = new Date('2026-11-24T10:00:00Z');
    const limit = inMemoryRateLimiter(() => now);
    for (let i = 0; i < 3; i++) await limit([rule]);
    await expect(limit([rule])).rejects.toMatchObject({ status: 429, message: 'Too many signups.' });
    now = new Date('2026-11-24T10:10:00Z');
    await expect(limit([rule])).resolves.toBeUndefined();
  });

  it('keys counters by a hash of the subject, the same for any letter case', () => {
    const at = new Date('2026-11-24T10:00:00Z');
    const a = counterKey(rule, at);
    const b = counterKey({ ...rule, subject: 'ada@example.com' }, at);
    expect(a.pk).toBe(b.pk);
    expect(a.pk).not.toContain('example');
    expect(a.pk.startsWith('signup.email#')).toBe(true);
  });

  it('takes the viewer address CloudFront sets when the request carries the origin-verify secret, else the source IP', () => {
    const event = (headers: Record<string, string>) => ({ headers, requestContext: { http: { sourceIp: '10.0.0.1' } } }) as unknown as HttpEvent;
    const secret = 'distribution-secret';
    const viaCloudFront = { 'x-origin-verify': secret };
    expect(clientIpOf(event({ ...viaCloudFront, 'cloudfront-viewer-address': '198.51.100.7:44321' }), secret)).toBe('198.51.100.7');
    expect(clientIpOf(event({ ...viaCloudFront, 'cloudfront-viewer-address': '[2001:db8::1]:443' }), secret)).toBe('2001:db8::1');
    expect(clientIpOf(event({}), secret)).toBe('10.0.0.1');
  });

  it('ignores a viewer address a client sent around the distribution (no secret, a wrong one, or none configured)', () => {
    const event = (headers: Record<string, string>) => ({ headers, requestContext: { http: { sourceIp: '10.0.0.1' } } }) as unknown as HttpEvent;
    const forged = { 'cloudfront-viewer-address': '203.0.113.9:1' };
    expect(clientIpOf(event(forged), 'distribution-secret')).toBe('10.0.0.1');
    expect(clientIpOf(event({ ...forged, 'x-origin-verify': 'guess' }), 'distribution-secret')).toBe('10.0.0.1');
    expect(clientIpOf(event({ ...forged, 'x-origin-verify': 'distribution-secreT' }), 'distribution-secret')).toBe('10.0.0.1');
    expect(clientIpOf(event({ ...forged, 'x-origin-verify': '' }), undefined)).toBe('10.0.0.1');
  });
});
