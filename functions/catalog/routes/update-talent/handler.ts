import * as z from 'zod';
import { TalentUpdateRequest } from '../../../../events/admin';
import { isTalentId, TALENT_NOT_FOUND_MESSAGE } from '../../../../events/talent';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { NotFoundError } from '../../../shared/errors';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { log } from '../../../shared/log';
import { talentStore } from '../../store';
import { updateTalent } from './service';

const config = loadConfig(z.object({ TALENT_TABLE: z.string().min(1) }));

/** `PATCH /admin/talent/{id}`: edits tagline, bio, tags, featured and status. Admins only. */
export const handler = httpHandler(async (event) => {
  const caller = requireGroup(event, 'admin');
  const id = event.pathParameters?.id ?? '';
  if (!isTalentId(id)) throw new NotFoundError(TALENT_NOT_FOUND_MESSAGE);
  const changes = parseJsonBody(event, TalentUpdateRequest);
  const talent = await updateTalent(talentStore(documentClient(), config.TALENT_TABLE), id, changes);
  log.info('talent edited', { talentId: id, fields: Object.keys(changes).join(','), by: caller.sub });
  return json(200, talent);
});
