import * as z from 'zod';
import { isTalentId, TALENT_NOT_FOUND_MESSAGE } from '../../../../events/talent';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { NotFoundError } from '../../../shared/errors';
import { httpHandler, json } from '../../../shared/http';
import { talentStore } from '../../store';

const config = loadConfig(z.object({ TALENT_TABLE: z.string().min(1) }));

/** `GET /admin/talent/{id}`: one talent, whatever its status. Admins only. */
export const handler = httpHandler(async (event) => {
  requireGroup(event, 'admin');
  const id = event.pathParameters?.id ?? '';
  if (!isTalentId(id)) throw new NotFoundError(TALENT_NOT_FOUND_MESSAGE);
  const talent = await talentStore(documentClient(), config.TALENT_TABLE).get(id);
  if (!talent) throw new NotFoundError(TALENT_NOT_FOUND_MESSAGE);
  return json(200, talent);
});
