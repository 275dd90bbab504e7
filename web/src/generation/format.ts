// Words the create page and the portals show for a generation (docs/product.md#create). Pure.
import type { GenerationStatus } from '../../../events/generation-values';

/** A status in words, and how far along it is (for the progress bar, 0-100). */
export const STATUS_TEXT: Record<GenerationStatus, { label: string; progress: number; working: string }> = {
  queued: { label: 'Queued', progress: 15, working: 'Reserving your credits and checking the request…' },
  starting: { label: 'Starting', progress: 35, working: 'Starting the image model…' },
  processing: { label: 'Generating', progress: 70, working: 'Generating your images…' },
  succeeded: { label: 'Done', progress: 100, working: 'Your images are ready.' },
  failed: { label: 'Failed', progress: 100, working: 'The generation failed.' },
  canceled: { label: 'Canceled', progress: 100, working: 'The generation was canceled.' },
};

/** "Costs 4 credits" / "Costs 1 credit". */
export function costText(count: number): string {
  return `Costs ${count} ${count === 1 ? 'credit' : 'credits'}`;
}

/** "Mar 2026" for "2026-03" (UTC months, as the usage counts them). */
export function monthLabel(month: string): string {
  const [y, m] = month.split('-').map(Number);
  if (!y || !m || m < 1 || m > 12) throw new RangeError(`not a month: ${month}`);
  return new Date(Date.UTC(y, m - 1, 1)).toLocaleDateString('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });
}

/** A fresh key for a start, so a retried request is the same generation. */
function newIdempotencyKey(): string {
  return typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

/** A start that got no answer (a network failure or a 5xx): its request and the key it was sent with. */
export interface UnansweredStart {
  request: string;
  key: string;
}

/**
 * The Idempotency-Key of a start: the unanswered start's key when the same request is sent again
 * (its answer may be all that was lost: the server then answers the generation it made, instead of
 * making and charging a second one), a fresh key otherwise.
 */
export function startAttempt(unanswered: UnansweredStart | undefined, request: object, fresh: () => string = newIdempotencyKey): UnansweredStart {
  const body = JSON.stringify(request);
  return unanswered?.request === body ? unanswered : { request: body, key: fresh() };
}

/** Whether a failed start had an answer (a refusal: the next click is a new request) or may still have been made. */
export const startWasAnswered = (status: number) => status > 0 && status < 500;

/**
 * The months a usage chart shows, oldest first: every month from the first with images (at most
 * `span` months back) to the current UTC month, months without images as 0, so the bars keep
 * the calendar's spacing.
 */
export function usageMonths(months: readonly { month: string; images: number }[], now: Date, span = 12): { month: string; images: number }[] {
  const key = (y: number, m: number) => `${y}-${String(m + 1).padStart(2, '0')}`;
  const byMonth = new Map(months.map((m) => [m.month, m.images]));
  const latest = months.reduce((max, m) => (m.month > max ? m.month : max), key(now.getUTCFullYear(), now.getUTCMonth()));
  const [ly, lm] = latest.split('-').map(Number);
  const window = Array.from({ length: span }, (_, i) => {
    const d = new Date(Date.UTC(ly, lm - 1 - (span - 1 - i), 1));
    return key(d.getUTCFullYear(), d.getUTCMonth());
  });
  const first = window.findIndex((m) => (byMonth.get(m) ?? 0) > 0);
  return first === -1 ? [] : window.slice(first).map((month) => ({ month, images: byMonth.get(month) ?? 0 }));
}
