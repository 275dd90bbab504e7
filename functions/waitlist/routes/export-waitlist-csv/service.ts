import { WAITLIST_CSV_COLUMNS } from '../../../../events/admin';
import { toCsv } from '../../../shared/csv';
import type { WaitlistStore } from '../../store';

/** The whole waitlist as CSV, in waitlist order. */
export async function exportWaitlistCsv(store: WaitlistStore): Promise<string> {
  const entries = await store.readAll();
  entries.sort((a, b) => a.position - b.position);
  return toCsv(
    WAITLIST_CSV_COLUMNS,
    entries.map((e) => ({ ...e, newsletter: e.newsletter ? 'yes' : 'no' })),
  );
}
