import type { FoundingStore } from '../../../founding';
import type { SendEmail } from '../../../shared/email';
import { ONE_DAY, sendOnce, type Once } from '../../../shared/idempotency';
import { log } from '../../../shared/log';
import { modelReadyEmail } from '../../emails';
import { TrainingNotFound } from '../../errors';
import type { TrainingStore } from '../../store';

export interface EmailTalentDeps {
  store: Pick<TrainingStore, 'getTraining'>;
  founding: Pick<FoundingStore, 'getApplication'>;
  send: SendEmail;
  /** The idempotency utility: the email of a training is sent once, however often the step runs. */
  once: Once;
  siteUrl: string;
}

/**
 * Step EmailTalent: tells the talent their model is ready for review, with a link to the talent
 * portal, at the address of the application they were accepted from. Sent once per training
 * (decision 050): a repeat of the step answers `{ sent: false }` and sends nothing.
 */
export async function emailTalent(deps: EmailTalentDeps, trainingId: string): Promise<{ sent: boolean }> {
  const training = await deps.store.getTraining(trainingId);
  if (!training) throw new TrainingNotFound(trainingId);
  const application = await deps.founding.getApplication(training.applicationId);
  const sent = await sendOnce(deps, { name: 'likeness-model-ready', key: trainingId, expiresAfterSeconds: 7 * ONE_DAY }, application.email, () =>
    modelReadyEmail({ firstName: application.firstName, siteUrl: deps.siteUrl, retraining: training.number > 1 }),
  );
  if (sent) log.info('talent told the likeness model is ready', { trainingId });
  return { sent };
}
