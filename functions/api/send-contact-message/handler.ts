import * as z from 'zod';
import { ContactRequest } from '../../../events/contact';
import { documentClient } from '../../shared/clients';
import { loadConfig } from '../../shared/config';
import { publish } from '../../shared/events';
import { httpHandler, json, parseJsonBody } from '../../shared/http';
import { receiveMessage } from './service';

const config = loadConfig(
  z.object({
    MESSAGES_TABLE: z.string().min(1),
    EVENT_BUS_NAME: z.string().min(1),
  }),
);

/** `POST /contact`: stores a message from one of the contact pages; 202 `{ received: true }`. */
export const handler = httpHandler(async (event) => {
  const request = parseJsonBody(event, ContactRequest);
  const result = await receiveMessage(
    {
      doc: documentClient(),
      tableName: config.MESSAGES_TABLE,
      publish: (type, detail) => publish(config.EVENT_BUS_NAME, type, detail),
    },
    request,
  );
  return json(202, result);
});
