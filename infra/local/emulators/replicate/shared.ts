// What the Replicate emulator's parts share: statuses, errors, ids, timers, the files it serves,
// webhook fields and Replicate's paged lists.
import { randomBytes } from 'node:crypto';
import type { Page } from 'replicate';
import { REPLICATE_VERSION_ID } from '../../../../events/replicate-values';

export type ReplicateStatus = 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled' | 'aborted';
export type WebhookEvent = 'start' | 'output' | 'logs' | 'completed';
const WEBHOOK_EVENTS: readonly WebhookEvent[] = ['start', 'output', 'logs', 'completed'];

export const isFinal = (status: ReplicateStatus): boolean => ['succeeded', 'failed', 'canceled', 'aborted'].includes(status);

/** An answer of Replicate's API other than 2xx, in its problem shape (`title`, `detail`, `status`). */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly title: string,
    detail: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export const notFound = (detail = 'The requested resource could not be found.') => new ApiProblem(404, 'Not found', detail);
export const invalidInput = (detail: string) => new ApiProblem(422, 'Input validation failed', detail);

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
/** Replicate's prediction and training ids are 26 lowercase base32 characters. */
export function replicateId(): string {
  return [...randomBytes(26)].map((b) => BASE32[b % 32]).join('');
}

/** Replicate's version ids are 64 hexadecimal characters. */
export const newVersionId = (): string => randomBytes(32).toString('hex');
export const VERSION_ID = REPLICATE_VERSION_ID;

/** ISO 8601, or null for a time not reached yet (Replicate sends null; the package types them optional). */
export const isoOrNull = (ms: number | undefined) => (ms ? new Date(ms).toISOString() : null) as string | undefined;

/** Timers that never fire after `stop()`, so a stopped emulator leaves nothing running. */
export class Timers {
  private readonly pending = new Set<NodeJS.Timeout>();
  stopped = false;

  later(ms: number, fn: () => void): NodeJS.Timeout {
    const t = setTimeout(() => {
      this.pending.delete(t);
      if (!this.stopped) fn();
    }, ms);
    this.pending.add(t);
    return t;
  }

  cancel(timers: NodeJS.Timeout[]): void {
    for (const t of timers) {
      clearTimeout(t);
      this.pending.delete(t);
    }
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.pending) clearTimeout(t);
    this.pending.clear();
  }
}

/** Files the emulator serves under `/files/`: prediction outputs (which expire) and training weights (which do not). */
export class Files {
  private readonly files = new Map<string, { body: Buffer; contentType: string; expiresAt?: number }>();

  put(pathname: string, body: Buffer, contentType: string, expiresAt?: number): void {
    this.files.set(pathname, { body, contentType, expiresAt });
  }

  /** The file, unless it is unknown or expired (an expired one is dropped). */
  get(pathname: string): { body: Buffer; contentType: string } | undefined {
    const file = this.files.get(pathname);
    if (file?.expiresAt !== undefined && file.expiresAt <= Date.now()) {
      this.files.delete(pathname);
      return undefined;
    }
    return file;
  }

  has(pathname: string): boolean {
    return this.files.has(pathname);
  }

  delete(pathname: string): void {
    this.files.delete(pathname);
  }

  /** Every file that expires is gone from now on, as after Replicate's hour. */
  expireAll(): void {
    for (const [name, file] of this.files) if (file.expiresAt !== undefined) this.files.delete(name);
  }
}

/** `webhook` and `webhook_events_filter` of a create, checked as Replicate checks them. */
export function readWebhook(body: Record<string, unknown>): { webhook?: string; filter: WebhookEvent[] } {
  let webhook: string | undefined;
  if (body.webhook !== undefined) {
    try {
      webhook = new URL(String(body.webhook)).toString();
    } catch {
      throw new ApiProblem(422, 'Invalid webhook', 'webhook: must be a URL');
    }
  }
  const filter = (body.webhook_events_filter ?? WEBHOOK_EVENTS) as WebhookEvent[];
  if (!Array.isArray(filter) || filter.some((e) => !WEBHOOK_EVENTS.includes(e))) {
    throw new ApiProblem(422, 'Invalid webhook events filter', `webhook_events_filter: each must be one of ${WEBHOOK_EVENTS.join(', ')}`);
  }
  return { webhook, filter: [...new Set(filter)] };
}

/** Replicate's lists answer 100 items a page. */
const LIST_PAGE_SIZE = 100;

/**
 * One page of a list of items newest first, from `url`'s `cursor` (an offset of ours);
 * `next` and `previous` are the other pages' URLs, with the same query.
 */
export function pageOf<T>(items: T[], url: URL, endpoint: string): Page<T> {
  const cursor = url.searchParams.get('cursor');
  const offset = cursor === null ? 0 : Number(cursor);
  if (!Number.isInteger(offset) || offset < 0) throw new ApiProblem(400, 'Invalid cursor', 'cursor: not one this list gave out');
  const pageAt = (n: number) => {
    const next = new URL(`${endpoint}${url.pathname}`);
    for (const [k, v] of url.searchParams) if (k !== 'cursor') next.searchParams.set(k, v);
    next.searchParams.set('cursor', String(n));
    return next.toString();
  };
  return {
    results: items.slice(offset, offset + LIST_PAGE_SIZE),
    ...(offset + LIST_PAGE_SIZE < items.length ? { next: pageAt(offset + LIST_PAGE_SIZE) } : {}),
    ...(offset > 0 ? { previous: pageAt(Math.max(0, offset - LIST_PAGE_SIZE)) } : {}),
  };
}

/** `created_after` (at or after) and `created_before` (before), ISO 8601, of a list's query. */
export function createdWindow(url: URL): (createdAt: number) => boolean {
  const time = (name: string): number | undefined => {
    const value = url.searchParams.get(name);
    if (value === null) return undefined;
    const ms = Date.parse(value);
    if (Number.isNaN(ms)) throw new ApiProblem(400, 'Invalid query', `${name}: an ISO 8601 date-time is required`);
    return ms;
  };
  const after = time('created_after');
  const before = time('created_before');
  return (at) => (after === undefined || at >= after) && (before === undefined || at < before);
}
