// Errors the training workflow's steps end with. Step Functions sees a failed Lambda's error by
// its name, so each name is set on the instance (the bundles are minified: class names are not
// kept). The permanent ones (TRAINING_PERMANENT_ERRORS, events/training-values.ts) are never
// retried by the state machine;
// RecordFailure turns a name into the training's failure code.
import type { TrainingFailureCode } from '../../events/training-values';

class TrainingError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

/** The training (or its talent's model) is not in the table. */
export class TrainingNotFound extends TrainingError {
  constructor(trainingId: string) {
    super('TrainingNotFound', `training ${trainingId} not found`);
  }
}

/** The accepted application has no talent yet: retried with backoff while the acceptance's steps create it. */
export class TalentNotCreated extends TrainingError {
  constructor(applicationId: string) {
    super('TalentNotCreated', `application ${applicationId} has no talent yet`);
  }
}

/** Fewer usable photos than the trainer needs. */
export class TooFewPhotos extends TrainingError {
  constructor(count: number, needed: number) {
    super('TooFewPhotos', `${count} usable photos; the trainer needs at least ${needed}`);
  }
}

/** Replicate ended the training without a version (failed or canceled), or gave no version. */
export class TrainerFailed extends TrainingError {
  constructor(message: string) {
    super('TrainerFailed', message);
  }
}

/** The talent's likeness was removed: nothing more is trained for it. */
export class LikenessRemoved extends TrainingError {
  constructor(talentId: string) {
    super('LikenessRemoved', `the likeness of talent ${talentId} was removed`);
  }
}

/** The failure code of an error that ended a training (by its name, as Step Functions reports it). */
export function failureCodeOf(errorName: string | undefined): TrainingFailureCode {
  switch (errorName) {
    case 'TooFewPhotos':
      return 'too-few-photos';
    case 'TalentNotCreated':
      return 'no-talent';
    case 'TrainerFailed':
      return 'trainer-failed';
    default:
      return 'error';
  }
}
