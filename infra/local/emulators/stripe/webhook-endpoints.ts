// Webhook endpoints and events over the Stripe emulator's API: endpoints made, listed, changed
// and deleted as on Stripe (the secret shown only at creation), and the events kept, a connected
// account's listed with its Stripe-Account header and the platform's without. Delivery is
// webhooks.ts.
import { type Api, found, newest, page } from './api';
import { invalid } from './form';
import type { Webhooks } from './webhooks';

export function webhookRoutes(api: Api, w: Webhooks): void {
  api.on('POST', '/v1/webhook_endpoints', (r) => {
    const url = r.url('url', { required: true })!;
    const enabled = r.strings('enabled_events');
    if (!enabled || enabled.length === 0) throw invalid('Missing required param: enabled_events.', 'enabled_events', 'parameter_missing');
    r.string('api_version');
    const endpoint = w.addEndpoint({
      url,
      enabledEvents: enabled,
      description: r.string('description') ?? null,
      metadata: r.metadata() ?? {},
      connect: r.boolean('connect') ?? false,
      created: Math.floor(Date.now() / 1000),
    });
    return endpoint;
  });
  api.on('GET', '/v1/webhook_endpoints', (r) => page(newest(w.allEndpoints()).map((x) => w.listed(x)), r, '/v1/webhook_endpoints', 'webhook_endpoint'));
  api.on('GET', '/v1/webhook_endpoints/:id', (_r, [id]) => w.listed(found(w.endpoint(id), 'webhook endpoint', id)));
  api.on('POST', '/v1/webhook_endpoints/:id', (r, [id]) => {
    found(w.endpoint(id), 'webhook endpoint', id);
    const enabled = r.strings('enabled_events');
    const updated = w.updateEndpoint(id, {
      url: r.url('url'),
      enabledEvents: enabled,
      disabled: r.boolean('disabled'),
      description: r.string('description'),
      metadata: r.metadata() ?? undefined,
    })!;
    return w.listed(updated);
  });
  api.on('DELETE', '/v1/webhook_endpoints/:id', (_r, [id]) => {
    found(w.endpoint(id), 'webhook endpoint', id);
    w.deleteEndpoint(id);
    return { id, object: 'webhook_endpoint', deleted: true };
  });
  api.on(
    'GET',
    '/v1/events',
    (r, _m, ctx) => {
      const type = r.string('type');
      const types = r.strings('types');
      if (type && types) throw invalid('You may only specify one of these parameters: type, types.', 'types');
      const matches = (t: string) => (!type || (type.endsWith('.*') ? t.startsWith(type.slice(0, -1)) : t === type)) && (!types || types.includes(t));
      const all = [...w.events].reverse().filter((ev) => (ev.account ?? null) === ctx.account && matches(ev.type));
      return page(all, r, '/v1/events', 'event');
    },
    { connected: true },
  );
  api.on('GET', '/v1/events/:id', (_r, [id], ctx) => found([w.event(id)].find((ev) => ev && (ev.account ?? null) === ctx.account), 'event', id), { connected: true });
}
