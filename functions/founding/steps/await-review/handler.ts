import * as z from 'zod';
import { documentClient } from '../../../shared/clients';
import { foundingStore } from '../../store';
import { loadConfig } from '../../../shared/config';
import { failTask, resumeTask } from '../../../shared/workflows';
import { APPLICATION_ID_PATTERN } from '../../keys';
import { awaitReview } from './service';

const config = loadConfig(z.object({ APPLICATIONS_TABLE: z.string().min(1) }));

const Input = z.object({
  applicationId: z.string().regex(APPLICATION_ID_PATTERN),
  taskToken: z.string().min(1),
  /** The execution's name (`$$.Execution.Name`): the review belongs to one execution. */
  execution: z.string().min(1).max(80).optional(),
});

/** Workflow step AwaitReview (`.waitForTaskToken`): `{ applicationId, taskToken, execution }`. */
export async function handler(event: unknown) {
  const { applicationId, taskToken, execution } = Input.parse(event);
  return awaitReview(
    {
      store: foundingStore(documentClient(), config.APPLICATIONS_TABLE),
      resume: resumeTask,
      fail: failTask,
    },
    applicationId,
    taskToken,
    execution,
  );
}
