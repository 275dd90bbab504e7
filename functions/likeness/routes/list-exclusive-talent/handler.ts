import * as z from 'zod';
import { requireRole } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { talentStore } from '../../../catalog';
import { exclusiveTalent } from './service';

const config = loadConfig(z.object({ TALENT_TABLE: z.string().min(1) }));

/** `GET /me/exclusive-talent` (clients): the talent under an exclusive contract with the caller, `{talent: PublicTalent[]}`. */
export const handler = httpHandler(async (event) => {
  const caller = requireRole(event, 'client');
  return json(200, await exclusiveTalent(talentStore(documentClient(), config.TALENT_TABLE), caller.sub, new Date()));
});
