// Errors the generation workflow's steps end with when a retry cannot change the answer. Step
// Functions sees a failed Lambda's error by its name, so each name is set on the instance (the
// bundles are minified: class names are not kept). RecordFailure turns a refusal's name into the
// generation's failure code and shows its message, which is written for the client.
import type { FailureCode } from '../../events/generation-values';
import { ADMISSION_TIMED_OUT_MESSAGE } from '../../events/generation-values';
import { INDUSTRY_CHECK_UNAVAILABLE_MESSAGE } from '../../events/industries';

class GenerationRefusal extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

/** The balance is short (the message names both figures). */
export class InsufficientCredits extends GenerationRefusal {
  constructor(message: string) {
    super('InsufficientCredits', message);
  }
}

/** The talent's choices refuse this generation (the message says which). */
export class PolicyRefused extends GenerationRefusal {
  constructor(message: string) {
    super('PolicyRefused', message);
  }
}

/** The prediction finished without an image we could deliver. */
export class PredictionFailed extends GenerationRefusal {
  constructor(message: string) {
    super('PredictionFailed', message);
  }
}

/**
 * The industry classifier gave no answer (an outage, a failed or unreadable prediction). Unlike
 * the refusals it is retried by the workflow; after the retries the generation fails closed with
 * this message and code `error` (decision 039). `reason` is for the log, never for the client.
 */
export class IndustryCheckUnavailable extends GenerationRefusal {
  constructor(readonly reason: string) {
    super('IndustryCheckUnavailable', INDUSTRY_CHECK_UNAVAILABLE_MESSAGE);
  }
}

/** The start waited ADMISSION_MAX_WAIT_SECONDS in the admission queue without being admitted (decision 065). */
export class AdmissionTimedOut extends GenerationRefusal {
  constructor() {
    super('AdmissionTimedOut', ADMISSION_TIMED_OUT_MESSAGE);
  }
}

/** The execution names a generation that does not exist. */
export class GenerationNotFound extends GenerationRefusal {
  constructor(id: string) {
    super('GenerationNotFound', `There is no generation ${id}`);
  }
}

/** The failure code of each refusal whose message is shown to the client as it is. */
export const REFUSAL_CODES: Record<string, FailureCode> = {
  InsufficientCredits: 'insufficient-credits',
  PolicyRefused: 'policy',
  PredictionFailed: 'prediction-failed',
  IndustryCheckUnavailable: 'error',
  AdmissionTimedOut: 'busy',
};
