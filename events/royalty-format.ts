/**
 * How royalty amounts are written on statements, in the portal, the console and the CSVs:
 * plain integer arithmetic (no floating point), free of zod so the browser can import it.
 */
import { BPS_PER_WHOLE, PROMOTIONAL_LABEL, TIER_LABELS, type RoyaltyTier } from './royalty-values';

const MICROS_PER_DOLLAR = 1_000_000;

function assertWhole(n: number, what: string): void {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${what} must be a whole number of 0 or more, got ${n}`);
}

/** Micro-dollars as dollars with all six decimals: 175000 -> "0.175000". */
export function dollarsOfMicros(micros: number): string {
  assertWhole(micros, 'micros');
  return `${Math.floor(micros / MICROS_PER_DOLLAR)}.${String(micros % MICROS_PER_DOLLAR).padStart(6, '0')}`;
}

/** Whole cents as dollars: 1234 -> "12.34". */
export function dollarsOfCents(cents: number): string {
  assertWhole(cents, 'cents');
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** Micro-dollars as dollars rounded down to the cent, for display: 1_234_567 -> "1.23". */
export function dollarsOfMicrosToCent(micros: number): string {
  assertWhole(micros, 'micros');
  return dollarsOfCents(Math.floor(micros / 10_000));
}

/** A rate in basis points as a percent: 3500 -> "35", 2250 -> "22.5". */
export function percentOfBps(bps: number): string {
  assertWhole(bps, 'bps');
  const whole = Math.floor((bps * 100) / BPS_PER_WHOLE);
  const rest = bps % 100;
  return rest === 0 ? String(whole) : `${whole}.${String(rest).padStart(2, '0').replace(/0$/, '')}`;
}

/** A statement line's tier as statements name it: its tier, or "Promotional credits at 20%" for a promotional credit's. */
export function lineTierLabel(line: { tier: RoyaltyTier; rateBps: number; promotional?: true }): string {
  return line.promotional ? `${PROMOTIONAL_LABEL} at ${percentOfBps(line.rateBps)}%` : TIER_LABELS[line.tier];
}
