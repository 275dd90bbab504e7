import { PayoutMonth } from '../../events/payouts';
import { ValidationError } from '../shared/errors';

/** A `{month}` path parameter, or 400 naming what is wrong. */
export function monthParam(value: string | undefined): string {
  const parsed = PayoutMonth.safeParse(value);
  if (!parsed.success) throw new ValidationError(parsed.error.issues[0]!.message, { month: parsed.error.issues[0]!.message });
  return parsed.data;
}
