import { WAITLIST_CSV_COLUMNS } from '../../../events/admin';
import { toCsv } from '../../shared/csv';
import { readWaitlist, type WaitlistReadDeps } from '../../shared/waitlist-entries';

/** The whole waitlist as CSV, in waitlist order. */
export async function exportWaitlistCsv(deps: WaitlistReadDeps): Promise<string> {
  const entries = await readWaitlist(deps);
  entries.sort((a, b) => a.position - b.position);
  return toCsv(
    WAITLIST_CSV_COLUMNS,
    entries.map((e) => ({ ...e, newsletter: e.newsletter ? 'yes' : 'no' })),
  );
}
