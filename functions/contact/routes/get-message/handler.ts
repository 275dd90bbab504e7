import * as z from 'zod';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { NotFoundError } from '../../../shared/errors';
import { httpHandler, json } from '../../../shared/http';
import { MESSAGE_ID_PATTERN, messageStore } from '../../store';

const config = loadConfig(z.object({ MESSAGES_TABLE: z.string().min(1) }));

/** `GET /admin/messages/{id}`: one contact message. Admins only. */
export const handler = httpHandler(async (event) => {
  requireGroup(event, 'admin');
  const id = event.pathParameters?.id ?? '';
  if (!MESSAGE_ID_PATTERN.test(id)) throw new NotFoundError('Message not found.');
  const message = await messageStore(documentClient(), config.MESSAGES_TABLE).getMessage(id);
  if (!message) throw new NotFoundError('Message not found.');
  return json(200, message);
});
