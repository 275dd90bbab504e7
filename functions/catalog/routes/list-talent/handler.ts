import * as z from 'zod';
import { TALENT_CACHE_SECONDS } from '../../../../events/talent-values';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { talentStore } from '../../store';
import { listTalent } from './service';

const config = loadConfig(z.object({ TALENT_TABLE: z.string().min(1) }));

/** `GET /talent`: the public Talent Library. */
export const handler = httpHandler(async () => {
  const result = await listTalent(talentStore(documentClient(), config.TALENT_TABLE));
  return json(200, result, { 'cache-control': `public, max-age=${TALENT_CACHE_SECONDS}` });
});
