// The catalogue in the Stripe emulator: products and their prices, those the emulator starts
// with (the twin's: `planCatalog()`) and those made through the API.
import type Stripe from 'stripe';
import { type Api, found, newest, page } from './api';
import type { Interval } from './clock';
import { invalid, missing, type Reader } from './form';
import * as o from './objects';
import type { Store } from './store';

/** A product of the catalogue the emulator starts with (the twin's: one per plan, decision 042). */
export interface CatalogProduct {
  id: string;
  name: string;
  description?: string;
  metadata?: Record<string, string>;
  prices: CatalogPrice[];
}

/** A price of a catalogue product; its id is kept, so server configuration can name it. */
interface CatalogPrice {
  id: string;
  unitAmount: number;
  currency?: string;
  recurring?: { interval: Interval; intervalCount?: number };
  lookupKey?: string;
  nickname?: string;
  metadata?: Record<string, string>;
}

export class Products {
  constructor(private readonly s: Store) {}

  seed(catalog: CatalogProduct[]): void {
    const created = this.s.clocks.now(null);
    for (const p of catalog) {
      this.s.products.set(p.id, o.product({ id: p.id, name: p.name, description: p.description, metadata: p.metadata, created }));
      for (const pr of p.prices) {
        if (!Number.isInteger(pr.unitAmount) || pr.unitAmount < 0) throw new Error(`catalogue price ${pr.id}: unitAmount must be a whole number of cents`);
        this.s.prices.set(
          pr.id,
          o.price({
            id: pr.id,
            product: p.id,
            unitAmount: pr.unitAmount,
            currency: pr.currency ?? 'usd',
            recurring: pr.recurring ? { interval: pr.recurring.interval, intervalCount: pr.recurring.intervalCount ?? 1 } : null,
            lookupKey: pr.lookupKey,
            nickname: pr.nickname,
            metadata: pr.metadata,
            created,
          }),
        );
      }
      const first = p.prices[0];
      if (first) this.s.products.get(p.id)!.default_price = first.id;
    }
  }

  createProduct(r: Reader): Stripe.Product {
    const id = r.string('id', { max: 100 }) || o.newId('prod', 14);
    if (this.s.products.has(id)) throw invalid(`Product already exists.`, 'id', 'resource_already_exists');
    const p = o.product({ id, name: r.required('name', { max: 250 }), description: r.string('description') ?? null, metadata: r.metadata() ?? {}, created: this.s.clocks.now(null) });
    const active = r.boolean('active');
    if (active !== undefined) p.active = active;
    r.done();
    this.s.products.set(id, p);
    this.s.emit('product.created', p, null);
    return p;
  }

  createPrice(r: Reader): Stripe.Price {
    const productId = r.required('product');
    if (!this.s.products.has(productId)) throw missing('product', productId, 'product');
    const recurring = r.hash('recurring');
    const interval = recurring?.oneOf('interval', ['day', 'week', 'month', 'year'] as const, { required: true });
    const intervalCount = recurring?.integer('interval_count', { min: 1, max: 12 }) ?? 1;
    recurring?.done();
    const lookupKey = r.string('lookup_key', { max: 200 });
    if (lookupKey && [...this.s.prices.values()].some((p) => p.lookup_key === lookupKey)) {
      throw invalid(`A price (\`${[...this.s.prices.values()].find((p) => p.lookup_key === lookupKey)!.id}\`) already uses that lookup key.`, 'lookup_key');
    }
    const p = o.price({
      id: o.newId('price'),
      product: productId,
      unitAmount: r.integer('unit_amount', { required: true, min: 0, max: 99_999_999 })!,
      currency: r.required('currency').toLowerCase(),
      recurring: interval ? { interval, intervalCount } : null,
      lookupKey,
      nickname: r.string('nickname'),
      metadata: r.metadata() ?? {},
      created: this.s.clocks.now(null),
    });
    r.done();
    this.s.prices.set(p.id, p);
    this.s.emit('price.created', p, null);
    return p;
  }

  routes(api: Api): void {
    const s = this.s;
    api.on('POST', '/v1/products', (r) => this.createProduct(r));
    api.on('GET', '/v1/products', (r) => {
      const active = r.boolean('active');
      return page(newest(s.products.values()).filter((p) => active === undefined || p.active === active), r, '/v1/products', 'product');
    });
    api.on('GET', '/v1/products/:id', (_r, [id]) => found(s.products.get(id), 'product', id));
    api.on('POST', '/v1/prices', (r) => this.createPrice(r));
    api.on('GET', '/v1/prices', (r) => {
      const active = r.boolean('active');
      const product = r.string('product');
      const type = r.oneOf('type', ['one_time', 'recurring'] as const);
      const lookupKeys = r.strings('lookup_keys');
      return page(
        newest(s.prices.values()).filter(
          (p) =>
            (active === undefined || p.active === active) &&
            (!product || p.product === product) &&
            (!type || p.type === type) &&
            (!lookupKeys || (p.lookup_key !== null && lookupKeys.includes(p.lookup_key))),
        ),
        r,
        '/v1/prices',
        'price',
      );
    });
    api.on('GET', '/v1/prices/:id', (_r, [id]) => s.price(id, 'id'));
  }
}
