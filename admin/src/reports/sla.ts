/** The time left to decide a report, in words: "due in 3 h", "overdue by 2 h". */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "45 min", "3 h", "2 d 5 h": a duration rounded down to its two largest units. */
function spanText(ms: number): string {
  const abs = Math.abs(ms);
  if (abs < HOUR) return `${Math.max(1, Math.floor(abs / MINUTE))} min`;
  if (abs < DAY) return `${Math.floor(abs / HOUR)} h`;
  const days = Math.floor(abs / DAY);
  const hours = Math.floor((abs - days * DAY) / HOUR);
  return hours ? `${days} d ${hours} h` : `${days} d`;
}

export interface Sla {
  text: string;
  overdue: boolean;
  /** Less than a quarter of a day left: shown in amber. */
  soon: boolean;
}

/** How a report stands against its due time at `now`. */
export function slaOf(dueAt: string, now = Date.now()): Sla {
  const left = Date.parse(dueAt) - now;
  if (Number.isNaN(left)) return { text: '—', overdue: false, soon: false };
  if (left <= 0) return { text: `overdue by ${spanText(left)}`, overdue: true, soon: false };
  return { text: `due in ${spanText(left)}`, overdue: false, soon: left < 6 * HOUR };
}
