import { log, redactEmails } from '../../../functions/shared/log';

/** Every line written while `fn` runs, from all three levels. */
function captured(fn: () => void): string {
  const lines: string[] = [];
  const spies = (['log', 'warn', 'error'] as const).map((m) => jest.spyOn(console, m).mockImplementation((...args: unknown[]) => {
    lines.push(String(args[0]));
  }));
  try {
    fn();
  } finally {
    for (const s of spies) s.mockRestore();
  }
  return lines.join('\n');
}

describe('logs', () => {
  it('log an error by name, message, stack, code, status and cause, with any address in them redacted', () => {
    const ses = Object.assign(new Error('Email address is not verified: ada.lovelace@example.org'), {
      name: 'MessageRejected',
      $metadata: { httpStatusCode: 400 },
    });
    const node = Object.assign(new Error('connect ECONNREFUSED for grace@example.com'), { code: 'ECONNREFUSED' });
    const wrapped = new Error('invoice.paid evt_1 was not applied', { cause: new TypeError('Cannot read properties of undefined') });
    const out = captured(() => {
      log.error('welcome email failed', ses, { position: 3 });
      log.error('could not reach the store', node);
      log.error('unhandled error', wrapped);
    });
    const [first, second, third] = out.split('\n').map((l) => JSON.parse(l));
    expect(first).toMatchObject({ level: 'error', message: 'welcome email failed', error: 'MessageRejected', errorMessage: 'Email address is not verified: [email]', status: 400, position: 3 });
    expect(first.stack).toMatch(/Email address is not verified: \[email\]\n\s+at /);
    expect(second).toMatchObject({ error: 'Error', code: 'ECONNREFUSED', errorMessage: 'connect ECONNREFUSED for [email]' });
    expect(third).toMatchObject({ error: 'Error', errorMessage: 'invoice.paid evt_1 was not applied', cause: 'TypeError', causeMessage: 'Cannot read properties of undefined' });
    expect(out).not.toMatch(/lovelace|grace@/);
  });

  it('replace anything email-like in messages and fields at every level', () => {
    const out = captured(() => {
      log.info('signup for Ada+test@Example.co.uk', { note: 'from "bob.o\'neil@sub.example.com"' });
      log.warn('x', { who: 'a_b-c@host.io' });
      log.error('y', 'not an error', { whom: 'ünïcode@exämple.de' });
    });
    expect(out).not.toMatch(/Example\.co\.uk|sub\.example|host\.io|exämple/);
    expect(out.match(/\[email\]/g)).toHaveLength(4);
    expect(JSON.parse(out.split('\n')[2])).toMatchObject({ error: 'string' });
  });

  it('leave text without addresses alone', () => {
    expect(redactEmails('application 01J9Z failed at step AllocateSpot (attempt 2)')).toBe('application 01J9Z failed at step AllocateSpot (attempt 2)');
    expect(redactEmails('keys pending/ab12/@cd/photo.jpg')).toBe('keys pending/ab12/@cd/photo.jpg');
    expect(redactEmails('key pending/ada@example.com/1.jpg')).toBe('key [email]/1.jpg');
  });
});
