import * as z from 'zod';
import { FOUNDING_IDENTITY_CHECK_REQUESTED } from '../../../../events/founding';
import { documentClient } from '../../../shared/clients';
import { loadConfig } from '../../../shared/config';
import { publish } from '../../../shared/events';
import { resumeTask } from '../../../shared/workflows';
import { APPLICATION_ID_PATTERN } from '../../keys';
import { foundingStore } from '../../store';
import { awaitIdentity } from './service';

const config = loadConfig(z.object({ APPLICATIONS_TABLE: z.string().min(1), EVENT_BUS_NAME: z.string().min(1) }));
const Input = z.object({ applicationId: z.string().regex(APPLICATION_ID_PATTERN), taskToken: z.string().min(1) });

/** Workflow step AwaitIdentity (`.waitForTaskToken`): `{ applicationId, taskToken }`. */
export async function handler(event: unknown) {
  const { applicationId, taskToken } = Input.parse(event);
  return awaitIdentity(
    {
      store: foundingStore(documentClient(), config.APPLICATIONS_TABLE),
      resume: resumeTask,
      requestCheck: (id) => publish(config.EVENT_BUS_NAME, FOUNDING_IDENTITY_CHECK_REQUESTED, { version: 1, applicationId: id }),
    },
    applicationId,
    taskToken,
  );
}
