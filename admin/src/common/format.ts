/** Small formatters shared by the console's pages. */

const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });

export function formatDateTime(iso: string | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateTime.format(d);
}

/** "3 days", "5 hours", "12 minutes": how long ago `iso` was. */
export function ageOf(iso: string, now = Date.now()): string {
  const minutes = Math.max(0, Math.floor((now - Date.parse(iso)) / 60_000));
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;
  if (minutes < 1) return 'less than a minute';
  if (minutes < 60) return plural(minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return plural(hours, 'hour');
  return plural(Math.floor(hours / 24), 'day');
}

export const STATUS_LABELS: Record<string, string> = {
  validating: 'Validating',
  pending_review: 'Pending review',
  accepted: 'Accepted',
  rejected: 'Rejected',
  invalid: 'Invalid photos',
  failed: 'Failed',
};

export const STATUS_COLORS: Record<string, 'default' | 'info' | 'warning' | 'success' | 'error'> = {
  validating: 'info',
  pending_review: 'warning',
  accepted: 'success',
  rejected: 'default',
  invalid: 'error',
  failed: 'error',
};

export const PROGRAM_LABELS: Record<string, string> = { founding: 'Founding talent', standard: 'Standard' };
export const INDUSTRY_LABELS: Record<string, string> = { religion: 'Religion', politics: 'Politics', alcohol: 'Alcohol' };
export const ROYALTY_LABELS: Record<string, string> = { 'founding-35': 'Founding: 35% for life', 'standard-tiers': 'Standard tiers (20-30%)' };
export const ROYALTY_SHORT: Record<string, string> = { 'founding-35': '35% for life', 'standard-tiers': 'Tiers, 20-30%' };

/** "MC" for Maya Chen: the console shows no profile images (they live on the public site). */
export const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');
