import type { AdminMessage } from '../../../../events/admin';
import { NotFoundError } from '../../../shared/errors';
import { MESSAGE_ID_PATTERN, type MessageStore } from '../../store';

/** `GET /admin/messages/{id}`: one contact message; 404 for an id that names none. */
export async function messageForAdmin(store: Pick<MessageStore, 'getMessage'>, id: string): Promise<AdminMessage> {
  if (!MESSAGE_ID_PATTERN.test(id)) throw new NotFoundError('Message not found.');
  const message = await store.getMessage(id);
  if (!message) throw new NotFoundError('Message not found.');
  return message;
}
