import * as z from 'zod';
import { TALENT_CACHE_SECONDS } from '../../../../events/talent-values';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { talentStore } from '../../store';
import { getTalent } from './service';

const config = loadConfig(z.object({ TALENT_TABLE: z.string().min(1) }));

/** `GET /talent/{id}`: one talent's profile; 404 `{ error: 'Model not found' }` otherwise. */
export const handler = httpHandler(async (event) => {
  const result = await getTalent(talentStore(documentClient(), config.TALENT_TABLE), event.pathParameters?.id);
  return json(200, result, { 'cache-control': `public, max-age=${TALENT_CACHE_SECONDS}` });
});
