import * as z from 'zod';
import { FAILURE_METRICS, METRICS_NAMESPACE_ENV } from '../../../events/metrics';
import { EarlySignupRequest } from '../../../events/waitlist';
import { ConflictError } from '../../../functions/shared/errors';
import { csv, httpHandler, json, MAX_JSON_BODY_BYTES, parseJsonBody, type HttpEvent } from '../../../functions/shared/http';
import { metricsWritten } from '../../support/metrics';

const event = (body: string | undefined, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  ({ body, headers, isBase64Encoded: false, routeKey: 'POST /x', requestContext: { requestId: 'r1' } }) as unknown as HttpEvent;

const handler = httpHandler(async (e) => json(200, parseJsonBody(e, EarlySignupRequest)));
const call = async (body: string | undefined, headers?: Record<string, string>) => {
  const res = await handler(event(body, headers));
  return { status: res.statusCode, body: JSON.parse(String(res.body)) };
};

describe('JSON request parsing', () => {
  it('lowercases and trims the email and keeps the optional fields', async () => {
    const res = await call(JSON.stringify({ email: '  Ada@Example.COM ', firstName: ' Ada ', signupType: 'startup', newsletter: false, terms: true }));
    expect(res).toEqual({ status: 200, body: { email: 'ada@example.com', firstName: 'Ada', signupType: 'startup', newsletter: false, terms: true } });
  });

  it.each([
    ['malformed JSON', '{"email": ', /not valid JSON/],
    ['an empty body', '', /empty/],
    ['a JSON array', '[]', /JSON object/],
    ['a missing email', '{}', /email is required/],
    ['an invalid email', '{"email":"not-an-email"}', /valid email address/],
    ['a wrong type', '{"email":42}', /email must be a string/],
    ['an unknown field', '{"email":"a@b.co","admin":true}', /admin is not a field/],
    ['an unknown signup type', '{"email":"a@b.co","signupType":"pirate"}', /signupType must be one of/],
    ['terms set to false', '{"email":"a@b.co","terms":false}', /terms must be accepted/],
  ])('answers 400 naming the problem for %s', async (_name, body, message) => {
    const res = await call(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
  });

  it('answers 413 for a body over the limit', async () => {
    const res = await call(JSON.stringify({ email: 'a@b.co', firstName: 'x'.repeat(MAX_JSON_BODY_BYTES) }));
    expect(res.status).toBe(413);
    expect(res.body.error).toMatch(/too large/);
  });

  it('answers 415 for a body that is not JSON', async () => {
    const res = await call('email=a@b.co', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(415);
  });

  it('names an unknown `__proto__` key like any other (found by the fuzzing check)', async () => {
    const res = await call('{"email":"ada@example.com","__proto__":{"isAdmin":true}}');
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('__proto__ is not a field this request accepts');
    expect(Object.keys(res.body.fields)).toEqual(['__proto__']);
  });

  it('decodes base64 bodies', async () => {
    const e = event(Buffer.from('{"email":"b@c.io"}').toString('base64'));
    e.isBase64Encoded = true;
    const res = await handler(e);
    expect(JSON.parse(String(res.body)).email).toBe('b@c.io');
  });
});

describe('error mapping', () => {
  it('maps domain errors to their status and hides unexpected ones behind a 500', async () => {
    const conflict = await httpHandler(async () => {
      throw new ConflictError('Waitlist is full');
    })(event('{}'));
    expect(conflict.statusCode).toBe(409);
    expect(JSON.parse(String(conflict.body))).toEqual({ error: 'Waitlist is full' });

    const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const crash = await httpHandler(async () => {
      throw new Error('secret internals');
    })(event('{}'));
    expect(crash.statusCode).toBe(500);
    expect(String(crash.body)).not.toContain('secret internals');
    spy.mockRestore();
  });

  it('counts an unexpected error as a metric an alarm watches (in total and for its route), and a domain error not at all', async () => {
    process.env[METRICS_NAMESPACE_ENV] = 'Humanly/Marketplace-unit';
    try {
      const domain = await metricsWritten(() => httpHandler(async () => {
        throw new ConflictError('Waitlist is full');
      })(event('{}')));
      expect(domain).toEqual([]);

      let status: number | undefined;
      const crash = await metricsWritten(async () => {
        status = (await httpHandler(async () => {
          throw new TypeError('boom');
        })(event('{}'))).statusCode;
      });
      expect(status).toBe(500);
      // CloudWatch's embedded metric format: the directive names the metric, its namespace and
      // its dimension sets (none: the total the alarm watches; Route: per route).
      expect(crash).toEqual([
        { name: FAILURE_METRICS.unexpectedError, value: 1, namespace: 'Humanly/Marketplace-unit', dimensions: [[], ['Route']], line: expect.objectContaining({ Route: 'POST /x', requestId: 'r1' }) },
      ]);
      expect(typeof (crash[0].line._aws as { Timestamp: unknown }).Timestamp).toBe('number');
    } finally {
      delete process.env[METRICS_NAMESPACE_ENV];
    }
  });

  it('validates against any schema', async () => {
    const h = httpHandler(async (e) => json(200, parseJsonBody(e, z.object({ n: z.number({ error: 'n must be a number' }) }).strict())));
    const res = await h(event('{"n":"1"}'));
    expect(res.statusCode).toBe(400);
    expect(JSON.parse(String(res.body)).fields).toEqual({ n: 'n must be a number' });
  });
});

describe('CSV answers', () => {
  it('answers the text as a download under its file name, never cached', () => {
    expect(csv('payouts-2026-10.csv', '\uFEFF"a"\r\n')).toEqual({
      statusCode: 200,
      headers: { 'content-type': 'text/csv; charset=utf-8', 'content-disposition': 'attachment; filename="payouts-2026-10.csv"', 'cache-control': 'no-store' },
      body: '\uFEFF"a"\r\n',
    });
  });

  it.each(['a"b.csv', 'a b.csv', '../x.csv', 'x.csv\r\nset-cookie: y', ''])('refuses a file name a header cannot carry as it is: %j', (name) => {
    expect(() => csv(name, '')).toThrow(/unsafe CSV file name/);
  });
});
