import * as z from 'zod';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json } from '../../../shared/http';
import { messageStore } from '../../store';
import { messageForAdmin } from './service';

const config = loadConfig(z.object({ MESSAGES_TABLE: z.string().min(1) }));

/** `GET /admin/messages/{id}`: one contact message. Admins only. */
export const handler = httpHandler(async (event) => {
  requireGroup(event, 'admin');
  return json(200, await messageForAdmin(messageStore(documentClient(), config.MESSAGES_TABLE), event.pathParameters?.id ?? ''));
});
