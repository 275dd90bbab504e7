import * as z from 'zod';
import { MessageListQuery } from '../../../../events/admin';
import { queryOf } from '../../../shared/admin-list';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { httpHandler, json, validationErrorFrom } from '../../../shared/http';
import { messageStore } from '../../store';
import { listMessages } from './service';

const config = loadConfig(z.object({ MESSAGES_TABLE: z.string().min(1) }));

/** `GET /admin/messages`: contact messages, newest first. Admins only. */
export const handler = httpHandler(async (event) => {
  requireGroup(event, 'admin');
  const query = MessageListQuery.safeParse(queryOf(event));
  if (!query.success) throw validationErrorFrom(query.error);
  return json(200, await listMessages(messageStore(documentClient(), config.MESSAGES_TABLE), query.data));
});
