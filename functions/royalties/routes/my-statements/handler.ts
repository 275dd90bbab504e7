import * as z from 'zod';
import { accountStores, AccountTables } from '../../../accounts';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { csv, httpHandler, json } from '../../../shared/http';
import { capMicrosOfCents } from '../../arithmetic';
import { royaltyStore } from '../../store';
import { myEarnings, myStatement, myStatementCsv, myStatements, type MyRoyaltiesDeps } from './service';

const config = loadConfig(
  AccountTables.extend({
    GENERATIONS_TABLE: z.string().min(1),
    /** The stage's cap on promotional royalties per talent per statement, in whole cents (this month so far applies it as the close will). */
    PROMOTIONAL_ROYALTY_CAP_CENTS: z.coerce.number().int().nonnegative(),
  }),
);

/**
 * An accepted talent's royalties (docs/royalties.md#talent-portal), one function for the reads:
 * `GET /me/earnings` (this month, live), `GET /me/statements`, `GET /me/statements/{id}` and
 * `GET /me/statements/{id}/csv` (a download).
 */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  const doc = documentClient();
  const deps: MyRoyaltiesDeps = { ...accountStores(doc, config), royalties: royaltyStore(doc, config.GENERATIONS_TABLE), promotionalCapMicros: capMicrosOfCents(config.PROMOTIONAL_ROYALTY_CAP_CENTS) };
  const path = event.rawPath ?? '';
  const id = event.pathParameters?.id;
  if (path.endsWith('/me/earnings')) return json(200, await myEarnings(deps, caller));
  if (id === undefined) return json(200, await myStatements(deps, caller));
  if (path.endsWith('/csv')) {
    const file = await myStatementCsv(deps, caller, id);
    return csv(file.filename, file.csv);
  }
  return json(200, await myStatement(deps, caller, id));
});
