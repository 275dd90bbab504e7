import * as z from 'zod';
import { DecisionRequest } from '../../../../events/founding';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { UnauthorizedError } from '../../../shared/errors';
import { publish } from '../../../shared/events';
import { httpHandler, json, parseJsonBody } from '../../../shared/http';
import { resumeTask } from '../../../shared/workflows';
import { foundingStore } from '../../store';
import { decide } from './service';

const config = loadConfig(
  z.object({
    APPLICATIONS_TABLE: z.string().min(1),
    EVENT_BUS_NAME: z.string().min(1),
  }),
);

/** `POST /admin/applications/{id}/decision` (admins): 202 `{ id, status, decision }`. */
export const handler = httpHandler(async (event) => {
  const caller = requireGroup(event, 'admin');
  if (!caller.email) throw new UnauthorizedError('Sign in with the console (its token names your email) to decide.');
  const request = parseJsonBody(event, DecisionRequest);
  const answer = await decide(
    {
      store: foundingStore(documentClient(), config.APPLICATIONS_TABLE),
      resume: resumeTask,
      publish: (type, detail) => publish(config.EVENT_BUS_NAME, type, detail),
    },
    event.pathParameters?.id ?? '',
    request,
    caller.email,
  );
  return json(202, answer);
});
