// The Stripe emulator's REST router: Stripe's paths under /v1, each registered by its resource
// (customers.ts, checkout.ts, ...) and read with its parameters (unknown ones refused, as Stripe
// does), lists with `limit`, `starting_after` and `ending_before`, and `expand[]` on any answer.
import type Stripe from 'stripe';
import { invalid, missing, type Reader } from './form';
import { list } from './objects';

/** What a call carries besides its parameters: the connected account of its `Stripe-Account` header, if any. */
export interface CallContext {
  account: string | null;
}

export type Handler = (r: Reader, m: string[], ctx: CallContext) => unknown;
interface Route {
  method: 'GET' | 'POST' | 'DELETE';
  path: RegExp;
  handler: Handler;
  /** Served on a connected account too (with the `Stripe-Account` header). */
  connected: boolean;
}

/** Stripe refuses expansions deeper than four levels. */
const MAX_EXPAND_DEPTH = 4;

interface Listed {
  id: string;
  created?: number;
}

/** One page of a list, newest first, as Stripe pages: `limit` (1-100, default 10), `starting_after`, `ending_before`. */
export function page<T extends Listed>(all: T[], r: Reader, url: string, kind: string): Stripe.ApiList<T> {
  const limit = r.integer('limit', { min: 1, max: 100 }) ?? 10;
  const after = r.string('starting_after');
  const before = r.string('ending_before');
  if (after && before) throw invalid('You may only specify one of these parameters: ending_before, starting_after.', 'ending_before');
  const created = createdFilter(r);
  const items = created ? all.filter((x) => created(x.created ?? 0)) : all;
  if (after) {
    const i = items.findIndex((x) => x.id === after);
    if (i < 0) throw missing(kind, after, 'starting_after');
    const data = items.slice(i + 1, i + 1 + limit);
    return list(url, data, i + 1 + limit < items.length);
  }
  if (before) {
    const i = items.findIndex((x) => x.id === before);
    if (i < 0) throw missing(kind, before, 'ending_before');
    const start = Math.max(0, i - limit);
    return list(url, items.slice(start, i), start > 0);
  }
  return list(url, items.slice(0, limit), items.length > limit);
}

/** `created=<t>` or `created[gt|gte|lt|lte]=<t>`. */
function createdFilter(r: Reader): ((t: number) => boolean) | undefined {
  if (!r.has('created')) return undefined;
  if (typeof r.params.created === 'string') {
    const t = r.integer('created')!;
    return (x) => x === t;
  }
  const h = r.hash('created')!;
  const [gt, gte, lt, lte] = [h.integer('gt'), h.integer('gte'), h.integer('lt'), h.integer('lte')];
  h.done();
  return (x) => (gt === undefined || x > gt) && (gte === undefined || x >= gte) && (lt === undefined || x < lt) && (lte === undefined || x <= lte);
}

/** Newest first (later insertion first when created at the same second). */
export const newest = <T extends Listed>(items: Iterable<T>): T[] =>
  [...items].map((x, i) => ({ x, i })).sort((a, b) => (b.x.created ?? 0) - (a.x.created ?? 0) || b.i - a.i).map(({ x }) => x);

export const refOf = (v: unknown): string | null => (typeof v === 'string' ? v : v && typeof v === 'object' && 'id' in v ? String((v as { id: unknown }).id) : null);

/** The object found, or Stripe's `resource_missing` error. */
export function found<T>(value: T | undefined, kind: string, id: string): T {
  if (value === undefined) throw missing(kind, id);
  return value;
}

/**
 * Where expansion finds objects: any object by id, and the fields Stripe leaves out unless
 * expanded (`line_items`, `payments`, `verified_outputs` and its `dob`); `within` are the objects
 * above `obj`, nearest last (what a nested hash such as `verified_outputs` belongs to).
 */
export interface Expansion {
  lookup(id: string): { id: string; object: string } | undefined;
  includable(obj: Record<string, unknown>, field: string, within: Array<Record<string, unknown>>): unknown;
}

export class Api {
  private readonly routes: Route[] = [];

  constructor(private readonly expansion: Expansion) {}

  /** Adds a route; `:name` in the path matches one segment, handed to the handler in order. */
  on(method: Route['method'], path: string, handler: Handler, opts: { connected?: boolean } = {}): void {
    this.routes.push({ method, path: new RegExp(`^${path.replace(/:[a-z]+/g, '([^/]+)')}$`), handler, connected: opts.connected ?? false });
  }

  /** The answer to one call, expanded as asked; undefined when no route matches. */
  call(method: string, pathname: string, r: Reader, ctx: CallContext = { account: null }): { found: boolean; body?: unknown } {
    for (const route of this.routes) {
      if (route.method !== method) continue;
      const m = route.path.exec(pathname);
      if (!m) continue;
      if (ctx.account && !route.connected) {
        throw invalid(
          `The emulator serves the Stripe-Account header on GET /v1/balance, /v1/payouts and /v1/events only, not on ${method} ${pathname}.`,
          'Stripe-Account',
        );
      }
      const expand = r.strings('expand') ?? [];
      const body = route.handler(r, m.slice(1).map(decodeURIComponent), ctx);
      r.done();
      return { found: true, body: this.expand(body, expand) };
    }
    return { found: false };
  }

  /** Replaces ids by their objects along each `expand[]` path (`data.` first for a list), and adds includable fields (`line_items`, `payments`). */
  private expand(body: unknown, paths: string[]): unknown {
    if (paths.length === 0) return body;
    const out = structuredClone(body);
    for (const path of paths) {
      const parts = path.split('.');
      if (parts.length > MAX_EXPAND_DEPTH + ((out as { object?: string }).object === 'list' ? 1 : 0)) {
        throw invalid(`You cannot expand more than ${MAX_EXPAND_DEPTH} levels of a property. Property: ${path}`, 'expand');
      }
      this.expandAt(out, parts, []);
    }
    return out;
  }

  private expandAt(node: unknown, parts: string[], within: Array<Record<string, unknown>>): void {
    if (Array.isArray(node)) {
      for (const n of node) this.expandAt(n, parts, within);
      return;
    }
    if (!node || typeof node !== 'object' || parts.length === 0) return;
    const obj = node as Record<string, unknown>;
    const [head, ...rest] = parts;
    const value = obj[head];
    if (typeof value === 'string') {
      const found = this.expansion.lookup(value);
      if (!found) throw invalid(`This property cannot be expanded (${head}).`, 'expand');
      obj[head] = structuredClone(found);
    } else if (value === undefined) {
      const included = this.expansion.includable(obj, head, within);
      if (included === undefined) throw invalid(`This property cannot be expanded (${head}).`, 'expand');
      obj[head] = included;
    }
    if (rest.length) this.expandAt(obj[head], rest, [...within, obj]);
  }
}
