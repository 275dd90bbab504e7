import type { EmailPreview, EmailPreviewRequest } from '../../../../events/founding';
import { FOUNDING_SPOTS } from '../../../../events/founding-values';
import { NotFoundError } from '../../../shared/errors';
import { ApplicationNotFoundError, type FoundingStore } from '../../store';
import { APPLICATION_ID_PATTERN } from '../../keys';
import { composeApplicationEmail } from '../../emails/compose';

export interface PreviewDeps {
  store: FoundingStore;
  siteUrl: string;
  /** Founding spots in all (default FOUNDING_SPOTS). */
  total?: number;
}

/**
 * The email a decision would send the applicant, rendered by the code that sends it, with the
 * message to the applicant the reviewer typed. An acceptance of a founding application shows the
 * founding email with the next free spot while spots are left (the number is allocated on
 * acceptance), the standard one otherwise.
 */
export async function previewDecisionEmail(
  deps: PreviewDeps,
  id: string,
  request: { decision: EmailPreviewRequest['decision']; messageToApplicant: string },
): Promise<EmailPreview> {
  if (!APPLICATION_ID_PATTERN.test(id)) throw new NotFoundError('No application with this id.');
  const app = await deps.store.getApplication(id).catch((err) => {
    throw err instanceof ApplicationNotFoundError ? new NotFoundError('No application with this id.') : err;
  });
  const review = { decision: request.decision, messageToApplicant: request.messageToApplicant };
  if (request.decision === 'reject') {
    const email = await composeApplicationEmail(deps, app, { applicationId: id, kind: 'rejection', review });
    return { to: app.email, ...email };
  }
  let { founding, spotNumber } = app;
  if (app.royaltyPlan === undefined) {
    const taken = app.program === 'founding' ? await deps.store.foundingSpotsTaken() : Infinity;
    founding = taken < (deps.total ?? FOUNDING_SPOTS);
    spotNumber = founding ? taken + 1 : undefined;
  }
  const email = await composeApplicationEmail(deps, { ...app, founding, spotNumber }, { applicationId: id, kind: 'acceptance', review });
  return { to: app.email, ...email };
}
