import * as z from 'zod';
import { requireGroup } from '../../../shared/auth';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { UnauthorizedError } from '../../../shared/errors';
import { httpHandler, json } from '../../../shared/http';
import { startExecution } from '../../../shared/workflows';
import { foundingStore } from '../../store';
import { retryApplication } from './service';

const config = loadConfig(z.object({ APPLICATIONS_TABLE: z.string().min(1), STATE_MACHINE_ARN: z.string().min(1) }));

/** `POST /admin/applications/{id}/retry` (admins): 202 `{ id, status, resumedAt }`; 409 unless the application failed. */
export const handler = httpHandler(async (event) => {
  const caller = requireGroup(event, 'admin');
  if (!caller.email) throw new UnauthorizedError('Sign in with the console (its token names your email) to retry.');
  const answer = await retryApplication(
    {
      store: foundingStore(documentClient(), config.APPLICATIONS_TABLE),
      start: (name, input) => startExecution(config.STATE_MACHINE_ARN, name, input),
    },
    event.pathParameters?.id ?? '',
    caller.email,
  );
  return json(202, answer);
});
