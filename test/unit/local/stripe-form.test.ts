import { addIntervals } from '../../../infra/local/emulators/stripe/clock';
import { mergeMetadata, parseForm, Reader, StripeApiError } from '../../../infra/local/emulators/stripe/form';
import { signature } from '../../../infra/local/emulators/stripe/webhooks';
import Stripe from 'stripe';

/** The body the official client sends for these parameters (its own encoder). */
const encoded = (params: Record<string, unknown>): string => {
  // The bracket syntax of the package's encoder (indexes for arrays); the integration tests send the package's own.
  const pairs: string[] = [];
  const walk = (key: string, value: unknown) => {
    if (value === undefined) return;
    if (Array.isArray(value)) value.forEach((v, i) => walk(`${key}[${i}]`, v));
    else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(`${key}[${k}]`, v);
    else pairs.push(`${encodeURIComponent(key).replace(/%5B/g, '[').replace(/%5D/g, ']')}=${encodeURIComponent(String(value ?? ''))}`);
  };
  for (const [k, v] of Object.entries(params)) walk(k, v);
  return pairs.join('&');
};

const errorOf = (fn: () => unknown): StripeApiError => {
  try {
    fn();
  } catch (err) {
    if (err instanceof StripeApiError) return err;
    throw err;
  }
  throw new Error('no error');
};

describe("the Stripe emulator's form parameters", () => {
  it('reads the bracket syntax into hashes and arrays, in index order', () => {
    const body = encoded({
      mode: 'subscription',
      line_items: [
        { price: 'price_a', quantity: 2 },
        { price: 'price_b', quantity: 1 },
      ],
      metadata: { account: 'acct 1', plan: 'pro' },
      expand: ['customer', 'line_items'],
    });
    expect(parseForm(body)).toEqual({
      mode: 'subscription',
      line_items: [
        { price: 'price_a', quantity: '2' },
        { price: 'price_b', quantity: '1' },
      ],
      metadata: { account: 'acct 1', plan: 'pro' },
      expand: ['customer', 'line_items'],
    });
    expect(parseForm('expand[]=a&expand[]=b')).toEqual({ expand: ['a', 'b'] });
    expect(parseForm('a[]=1&a[]=2&b=')).toEqual({ a: ['1', '2'], b: '' });
  });

  it('refuses a key that skips an index or is both a value and a hash, naming it', () => {
    expect(errorOf(() => parseForm('items[1][price]=x')).message).toBe('Invalid array: items[1][price] skips an index');
    expect(errorOf(() => parseForm('a=1&a[b]=2')).extra.param).toBe('a[b]');
    expect(errorOf(() => parseForm('a]=1')).message).toBe('Invalid parameter name: a]');
    // Stripe's metadata keys cannot hold square brackets.
    expect(errorOf(() => parseForm('metadata[a[b]]=x')).extra.param).toBe('metadata[a[b]]');
  });

  it("checks each parameter with Stripe's messages, naming the full parameter", () => {
    const r = new Reader(parseForm('line_items[0][quantity]=many&limit=0&flag=yes'));
    const item = r.hashes('line_items')![0];
    expect(errorOf(() => item.integer('quantity')).extra.param).toBe('line_items[0][quantity]');
    expect(errorOf(() => item.integer('quantity')).message).toBe('Invalid integer: many');
    expect(errorOf(() => r.integer('limit', { min: 1 })).message).toBe('This value must be greater than or equal to 1.');
    expect(errorOf(() => r.boolean('flag')).message).toBe('Invalid boolean: yes');
    expect(errorOf(() => r.required('mode'))).toMatchObject({ status: 400, message: 'Missing required param: mode.', extra: { param: 'mode', code: 'parameter_missing' } });
    const unknown = new Reader(parseForm('email=a%40b.c&emial=x'));
    unknown.string('email');
    expect(errorOf(() => unknown.done())).toMatchObject({ message: 'Received unknown parameter: emial', extra: { param: 'emial', code: 'parameter_unknown' } });
  });

  it('reads metadata within Stripe limits; an empty value removes a key, an empty metadata removes all', () => {
    expect(new Reader(parseForm('metadata[a]=1&metadata[b]=')).metadata()).toEqual({ a: '1', b: '' });
    expect(mergeMetadata({ a: '0', b: '2', c: '3' }, { a: '1', b: '' })).toEqual({ a: '1', c: '3' });
    expect(mergeMetadata({ a: '0' }, new Reader(parseForm('metadata=')).metadata())).toEqual({});
    expect(errorOf(() => new Reader(parseForm(`metadata[${'k'.repeat(41)}]=v`)).metadata()).message).toMatch(/up to 40 characters/);
    expect(errorOf(() => new Reader(parseForm(`metadata[k]=${'v'.repeat(501)}`)).metadata()).message).toMatch(/up to 500 characters/);
  });

  it("answers errors in Stripe's shape", () => {
    const err = new StripeApiError(402, 'card_error', 'Your card was declined.', { code: 'card_declined', decline_code: 'generic_decline', param: 'payment_method' });
    expect(err.body('req_1')).toEqual({
      error: {
        code: 'card_declined',
        decline_code: 'generic_decline',
        doc_url: 'https://docs.stripe.com/error-codes/card-declined',
        message: 'Your card was declined.',
        param: 'payment_method',
        request_log_url: 'https://dashboard.stripe.com/test/logs/req_1',
        type: 'card_error',
      },
    });
  });
});

describe("the Stripe emulator's clock and signatures", () => {
  it('adds months keeping the anchor day, or the last day of a shorter month', () => {
    const at = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d, 10) / 1000;
    expect(addIntervals(at(2030, 1, 31), 'month', 1, 1)).toBe(at(2030, 2, 28));
    expect(addIntervals(at(2030, 1, 31), 'month', 1, 2)).toBe(at(2030, 3, 31));
    expect(addIntervals(at(2032, 1, 31), 'month', 1, 1)).toBe(at(2032, 2, 29));
    expect(addIntervals(at(2030, 11, 15), 'month', 1, 3)).toBe(at(2031, 2, 15));
    expect(addIntervals(at(2030, 2, 29 - 1), 'year', 1, 1)).toBe(at(2031, 2, 28));
    expect(addIntervals(at(2030, 1, 1), 'week', 2, 1)).toBe(at(2030, 1, 15));
  });

  it('signs a payload as Stripe does: the official package verifies it, and refuses it changed or old', () => {
    const secret = 'whsec_unit_test_secret';
    const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'invoice.paid', data: { object: { id: 'in_1', object: 'invoice' } } }, null, 2);
    const now = Math.floor(Date.now() / 1000);
    const header = signature(payload, secret, now);
    expect(header).toBe(Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp: now }));
    expect(Stripe.webhooks.constructEvent(payload, header, secret).id).toBe('evt_1');
    expect(() => Stripe.webhooks.constructEvent(payload.replace('in_1', 'in_2'), header, secret)).toThrow(Stripe.errors.StripeSignatureVerificationError);
    const old = signature(payload, secret, now - 301);
    expect(() => Stripe.webhooks.constructEvent(payload, old, secret)).toThrow(/tolerance/i);
  });
});
