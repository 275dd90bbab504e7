import * as z from 'zod';
import { Month } from '../../../../events/royalties';
import { queryOf } from '../../../shared/admin-list';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { csv, httpHandler, validationErrorFrom } from '../../../shared/http';
import { log } from '../../../shared/log';
import { royaltyStore } from '../../store';
import { exportStatementsCsv, payoutCsvFilename } from './service';

const config = loadConfig(z.object({ GENERATIONS_TABLE: z.string().min(1) }));

const Query = z.strictObject({ month: Month });

/** `GET /admin/statements/csv?month=YYYY-MM` (admins): the month's payouts as a CSV download. */
export const handler = httpHandler(async (event) => {
  const caller = requireGroup(event, 'admin');
  const parsed = Query.safeParse(queryOf(event));
  if (!parsed.success) throw validationErrorFrom(parsed.error);
  const { month } = parsed.data;
  const text = await exportStatementsCsv(royaltyStore(documentClient(), config.GENERATIONS_TABLE), month);
  // Who exported payout details, never what.
  log.info('payouts exported', { month, by: caller.sub });
  return csv(payoutCsvFilename(month), text);
});
