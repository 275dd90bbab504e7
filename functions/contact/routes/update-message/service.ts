import type { AdminMessage, MessageUpdateRequest } from '../../../../events/admin';
import { NotFoundError } from '../../../shared/errors';
import type { MessageStore } from '../../store';

/** Marks a message handled (recording who and when) or new again. */
export async function updateMessage(store: MessageStore, id: string, req: MessageUpdateRequest, by: string, now = new Date()): Promise<AdminMessage> {
  const message = await store.setHandled(id, req.handled, by, now.toISOString());
  if (!message) throw new NotFoundError('Message not found.');
  return message;
}
