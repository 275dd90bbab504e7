// Case references (`RPT-` and six characters a person can read out without confusing them).
import { randomInt } from 'node:crypto';
import { REPORT_REFERENCE_ALPHABET } from '../../events/report-values';

export function newReference(): string {
  let code = '';
  for (let i = 0; i < 6; i++) code += REPORT_REFERENCE_ALPHABET[randomInt(REPORT_REFERENCE_ALPHABET.length)];
  return `RPT-${code}`;
}
