import type * as http from 'node:http';
import { Api, found } from '../../../infra/local/emulators/stripe/api';
import { parseForm, Reader, StripeApiError } from '../../../infra/local/emulators/stripe/form';
import { Pages } from '../../../infra/local/emulators/stripe/http';
import { changedFields } from '../../../infra/local/emulators/stripe/store';

const errorOf = (fn: () => unknown): StripeApiError => {
  try {
    fn();
  } catch (err) {
    if (err instanceof StripeApiError) return err;
    throw err;
  }
  throw new Error('no error');
};

const things = new Map([
  ['thing_1', { id: 'thing_1', object: 'thing', owner: 'cus_1', created: 1 }],
  ['thing_2', { id: 'thing_2', object: 'thing', owner: 'cus_1', created: 2 }],
]);
const owners = new Map([['cus_1', { id: 'cus_1', object: 'customer', name: 'Ada' }]]);

function api(): Api {
  const a = new Api({ lookup: (id) => owners.get(id), includable: (obj, field) => (obj.object === 'thing' && field === 'extra' ? { included: obj.id } : undefined) });
  a.on('GET', '/v1/things/:id', (_r, [id]) => found(things.get(id), 'thing', id));
  a.on('POST', '/v1/things/:id/name', (r, [id]) => ({ id, name: r.required('name') }));
  a.on('GET', '/v1/balance', (_r, _m, ctx) => ({ object: 'balance', account: ctx.account }), { connected: true });
  return a;
}
const reader = (query = '') => new Reader(parseForm(query));

describe("the Stripe emulator's API router", () => {
  it('answers the route of the method and path, with the path segments decoded', () => {
    expect(api().call('POST', '/v1/things/thing%5F1/name', reader('name=Box'))).toEqual({ found: true, body: { id: 'thing_1', name: 'Box' } });
    expect(api().call('GET', '/v1/things/thing_1/name', reader())).toEqual({ found: false });
    expect(api().call('DELETE', '/v1/things/thing_1', reader())).toEqual({ found: false });
  });

  it("answers Stripe's resource_missing for an id it does not have", () => {
    const err = errorOf(() => api().call('GET', '/v1/things/thing_9', reader()));
    expect(err.status).toBe(404);
    expect(err.body('req_1').error).toMatchObject({ code: 'resource_missing', type: 'invalid_request_error' });
  });

  it('refuses parameters the route did not read', () => {
    expect(errorOf(() => api().call('POST', '/v1/things/thing_1/name', reader('name=Box&colour=red'))).body('req_1').error).toMatchObject({ param: 'colour' });
  });

  it('serves the Stripe-Account header on connected routes only', () => {
    expect(api().call('GET', '/v1/balance', reader(), { account: 'acct_1' }).body).toEqual({ object: 'balance', account: 'acct_1' });
    expect(errorOf(() => api().call('GET', '/v1/things/thing_1', reader(), { account: 'acct_1' })).body('req_1').error).toMatchObject({ param: 'Stripe-Account' });
  });

  it('expands ids and includable fields on a copy, and refuses what it cannot expand', () => {
    const answer = api().call('GET', '/v1/things/thing_1', reader('expand[]=owner&expand[]=extra'));
    expect(answer.body).toEqual({ id: 'thing_1', object: 'thing', owner: { id: 'cus_1', object: 'customer', name: 'Ada' }, created: 1, extra: { included: 'thing_1' } });
    expect(things.get('thing_1')!.owner).toBe('cus_1');
    expect(errorOf(() => api().call('GET', '/v1/things/thing_1', reader('expand[]=object'))).body('req_1').error).toMatchObject({ param: 'expand' });
  });
});

describe("the Stripe emulator's hosted pages router", () => {
  const req = {} as http.IncomingMessage;
  const res = {} as http.ServerResponse;
  const url = (path: string) => new URL(path, 'http://localhost');

  it('serves the first page whose path and method match, with the groups of its path', async () => {
    const served: string[] = [];
    const pages = new Pages();
    pages.on(/^\/c\/pay\/(cs_[a-z0-9]+)$/, ['GET', 'POST'], ({ match, method }) => void served.push(`pay ${match[0]} ${method}`));
    pages.on(/^\/p\/(bps_[a-z0-9]+)(?:\/(cancel))?$/, undefined, ({ match, method }) => void served.push(`portal ${match[0]} ${match[1]} ${method}`));
    expect(await pages.serve(req, res, url('/c/pay/cs_1'), 'POST')).toBe(true);
    expect(await pages.serve(req, res, url('/c/pay/cs_1'), 'DELETE')).toBe(false);
    expect(await pages.serve(req, res, url('/p/bps_1/cancel'), 'PUT')).toBe(true);
    expect(await pages.serve(req, res, url('/p/bps_1'), 'GET')).toBe(true);
    expect(await pages.serve(req, res, url('/nowhere'), 'GET')).toBe(false);
    expect(served).toEqual(['pay cs_1 POST', 'portal bps_1 cancel PUT', 'portal bps_1 undefined GET']);
  });
});

describe("the Stripe emulator's previous attributes", () => {
  it('names the top-level fields that changed, with their values before', () => {
    const before = { id: 'cus_1', email: 'a@example.com', metadata: { plan: 'pro' }, name: 'Ada' };
    expect(changedFields(before, { ...before, email: 'b@example.com', metadata: { plan: 'max' } })).toEqual({ email: 'a@example.com', metadata: { plan: 'pro' } });
    expect(changedFields(before, structuredClone(before))).toBeUndefined();
  });
});
