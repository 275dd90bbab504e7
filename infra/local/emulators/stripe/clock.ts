// Time in the Stripe emulator. Objects follow a clock: a customer created with `test_clock`
// (and everything of theirs) follows that test clock's frozen time, as on Stripe; every other
// object follows the emulator's own clock, real time plus an offset the twin moves forward
// (`twin.stripe.advanceClock`), so renewals and retries happen when a test asks for them.

const SECONDS_PER_DAY = 86_400;

export type Interval = 'day' | 'week' | 'month' | 'year';

/** `anchor` plus `n` intervals, in seconds. Months and years keep the anchor's day, or the month's last day (Jan 31 -> Feb 28 -> Mar 31). */
export function addIntervals(anchor: number, interval: Interval, count: number, n: number): number {
  if (interval === 'day') return anchor + n * count * SECONDS_PER_DAY;
  if (interval === 'week') return anchor + n * count * 7 * SECONDS_PER_DAY;
  const d = new Date(anchor * 1000);
  const months = (interval === 'year' ? 12 : 1) * count * n;
  const year = d.getUTCFullYear() + Math.floor((d.getUTCMonth() + months) / 12);
  const month = (d.getUTCMonth() + months) % 12;
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const day = Math.min(d.getUTCDate(), lastDay);
  return Math.floor(Date.UTC(year, month, day, d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()) / 1000);
}

export const days = (n: number) => n * SECONDS_PER_DAY;

/** The emulator's clocks: its own (`null`) and the test clocks, by id. */
export class Clocks {
  /** Seconds added to real time on the emulator's own clock. */
  private offset = 0;
  private readonly frozen = new Map<string, number>();
  /** While due work is carried out, each clock reads the time of the work (an event's `created`). */
  private readonly pinned = new Map<string | null, number>();

  now(clock: string | null): number {
    const pinned = this.pinned.get(clock);
    if (pinned !== undefined) return pinned;
    if (clock === null) return Math.floor(Date.now() / 1000) + this.offset;
    const t = this.frozen.get(clock);
    if (t === undefined) throw new Error(`no test clock ${clock}`);
    return t;
  }

  addTestClock(id: string, frozenTime: number): void {
    this.frozen.set(id, frozenTime);
  }

  removeTestClock(id: string): void {
    this.frozen.delete(id);
  }

  /** Moves a clock to `to` (never back). */
  set(clock: string | null, to: number): void {
    if (clock === null) this.offset = Math.max(this.offset, to - Math.floor(Date.now() / 1000));
    else this.frozen.set(clock, Math.max(this.frozen.get(clock) ?? to, to));
  }

  pin(clock: string | null, at: number): void {
    this.pinned.set(clock, at);
  }

  unpin(clock: string | null): void {
    this.pinned.delete(clock);
  }
}
