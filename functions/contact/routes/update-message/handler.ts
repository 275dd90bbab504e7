import * as z from 'zod';
import { MessageUpdateRequest } from '../../../../events/admin';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { NotFoundError } from '../../../shared/errors';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { MESSAGE_ID_PATTERN, messageStore } from '../../store';
import { updateMessage } from './service';

const config = loadConfig(z.object({ MESSAGES_TABLE: z.string().min(1) }));

/** `PATCH /admin/messages/{id}`: marks a message handled or not. Admins only. */
export const handler = httpHandler(async (event) => {
  const caller = requireGroup(event, 'admin');
  const id = event.pathParameters?.id ?? '';
  if (!MESSAGE_ID_PATTERN.test(id)) throw new NotFoundError('Message not found.');
  const req = parseJsonBody(event, MessageUpdateRequest);
  const message = await updateMessage(messageStore(documentClient(), config.MESSAGES_TABLE), id, req, caller.email ?? caller.sub);
  return json(200, message);
});
