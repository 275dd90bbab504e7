import * as z from 'zod';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { royaltyStore } from '../../store';
import { talentStore } from '../../../catalog';
import { getStatementAdmin } from './service';

const config = loadConfig(z.object({ GENERATIONS_TABLE: z.string().min(1), TALENT_TABLE: z.string().min(1) }));

/** `GET /admin/statements/{id}` (admins): a statement with its tiers, lines, payout and the audit of payout changes. */
export const handler = httpHandler(async (event) => {
  requireGroup(event, 'admin');
  const doc = documentClient();
  const statement = await getStatementAdmin(
    { royalties: royaltyStore(doc, config.GENERATIONS_TABLE), talent: talentStore(doc, config.TALENT_TABLE) },
    event.pathParameters?.id,
  );
  return json(200, statement);
});
