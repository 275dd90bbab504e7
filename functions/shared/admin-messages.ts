import type { AdminMessage } from '../../events/admin';

/** A stored contact message as the console shows it (delivery bookkeeping left out). */
export function adminMessageOf(item: Record<string, unknown>): AdminMessage {
  const str = (k: string) => (typeof item[k] === 'string' ? (item[k] as string) : undefined);
  return {
    id: String(item.id),
    status: item.status === 'handled' ? 'handled' : 'new',
    createdAt: str('createdAt') ?? '',
    firstName: str('firstName') ?? '',
    lastName: str('lastName') ?? '',
    email: str('email') ?? '',
    subject: str('subject') ?? '',
    message: str('message') ?? '',
    page: str('page'),
    handledAt: str('handledAt'),
    handledBy: str('handledBy'),
    teamEmail: str('teamEmail'),
    ackEmail: str('ackEmail'),
  };
}

/** Message ids are UUIDs (send-contact-message); anything else cannot name a message. */
export const MESSAGE_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
