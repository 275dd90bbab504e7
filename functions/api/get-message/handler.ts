import { GetCommand } from '@aws-sdk/lib-dynamodb';
import * as z from 'zod';
import { requireGroup } from '../../shared/auth';
import { documentClient } from '../../shared/clients';
import { loadConfig } from '../../shared/config';
import { messageKey } from '../../shared/contact-keys';
import { adminMessageOf, MESSAGE_ID_PATTERN } from '../../shared/admin-messages';
import { NotFoundError } from '../../shared/errors';
import { httpHandler, json } from '../../shared/http';

const config = loadConfig(z.object({ MESSAGES_TABLE: z.string().min(1) }));

/** `GET /admin/messages/{id}`: one contact message. Admins only. */
export const handler = httpHandler(async (event) => {
  requireGroup(event, 'admin');
  const id = event.pathParameters?.id ?? '';
  if (!MESSAGE_ID_PATTERN.test(id)) throw new NotFoundError('Message not found.');
  const out = await documentClient().send(new GetCommand({ TableName: config.MESSAGES_TABLE, Key: { pk: messageKey(id) }, ConsistentRead: true }));
  if (!out.Item) throw new NotFoundError('Message not found.');
  return json(200, adminMessageOf(out.Item));
});
