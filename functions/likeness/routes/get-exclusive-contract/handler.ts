import * as z from 'zod';
import { talentStore } from '../../../catalog';
import { royaltyStore } from '../../../royalties';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { getExclusiveContract } from './service';

const config = loadConfig(z.object({ TALENT_TABLE: z.string().min(1), GENERATIONS_TABLE: z.string().min(1) }));

/** `GET /admin/talent/{id}/exclusive-contract` (admins): a talent's exclusive contract and the ended ones (docs/royalties.md#exclusive-contracts). */
export const handler = httpHandler(async (event) => {
  requireGroup(event, 'admin');
  const doc = documentClient();
  const deps = { talent: talentStore(doc, config.TALENT_TABLE), royalties: royaltyStore(doc, config.GENERATIONS_TABLE) };
  return json(200, await getExclusiveContract(deps, event.pathParameters?.id ?? '', new Date()));
});
