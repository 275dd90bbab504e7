import * as z from 'zod';
import { accountStores, AccountTables } from '../../../accounts';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler } from '../../../shared/http';
import { log } from '../../../shared/log';
import { rateLimiter } from '../../../shared/rate-limit';
import { generationStore } from '../../../generation';
import { royaltyStore } from '../../../royalties';
import { trainingStore } from '../../../training';
import { dataExportFilename, exportMyData } from './service';

const config = loadConfig(
  AccountTables.extend({
    GENERATIONS_TABLE: z.string().min(1),
    TRAINING_TABLE: z.string().min(1),
    RATE_LIMITS_TABLE: z.string().min(1),
    SITE_URL: z.string().min(1),
  }),
);

/** `GET /me/data-export` (accepted talent): everything we hold about them, as a JSON download. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'talent');
  const doc = documentClient();
  const now = new Date();
  const data = await exportMyData(
    {
      ...accountStores(doc, config),
      royalties: royaltyStore(doc, config.GENERATIONS_TABLE),
      generations: generationStore(doc, config.GENERATIONS_TABLE),
      trainings: trainingStore(doc, config.TRAINING_TABLE),
      siteUrl: config.SITE_URL,
      limit: rateLimiter(doc, config.RATE_LIMITS_TABLE),
      now: () => now,
    },
    caller,
  );
  // Who exported, never what.
  log.info('talent data exported', { accountId: caller.sub, trainings: data.trainings.length, licenses: data.licenses.length, statements: data.statements.length });
  return {
    statusCode: 200,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'content-disposition': `attachment; filename="${dataExportFilename(now)}"`,
      'cache-control': 'no-store',
    },
    body: JSON.stringify(data, null, 2),
  };
});
