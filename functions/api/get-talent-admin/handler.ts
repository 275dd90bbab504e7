import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { isTalentId, Talent, TALENT_NOT_FOUND_MESSAGE } from '../../../events/talent';
import { requireGroup } from '../../shared/auth';
import { documentClient } from '../../shared/clients';
import { loadConfig } from '../../shared/config';
import { NotFoundError } from '../../shared/errors';
import { httpHandler, json } from '../../shared/http';

const config = loadConfig(z.object({ TALENT_TABLE: z.string().min(1) }));

/** `GET /admin/talent/{id}`: one talent, whatever its status. Admins only. */
export const handler = httpHandler(async (event) => {
  requireGroup(event, 'admin');
  const id = event.pathParameters?.id ?? '';
  if (!isTalentId(id)) throw new NotFoundError(TALENT_NOT_FOUND_MESSAGE);
  const out = await documentClient().send(new GetCommand({ TableName: config.TALENT_TABLE, Key: { id }, ConsistentRead: true }));
  const talent = Talent.safeParse(out.Item);
  if (!talent.success) throw new NotFoundError(TALENT_NOT_FOUND_MESSAGE);
  return json(200, talent.data);
});
