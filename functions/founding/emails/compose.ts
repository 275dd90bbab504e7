// The applicant's emails as the workflow's email step sends them and the console's decision
// preview shows them: one composition for both.
import type { ApplicationDecisionRecord } from '../../../events/founding';
import type { Email } from '../../shared/email-layout';
import type { FoundingStore, StoredApplication } from '../store';
import { acceptanceEmail, applicationConfirmationEmail, invalidPhotosEmail, rejectionEmail } from './application';

export const EMAIL_KINDS = ['confirmation', 'invalid', 'acceptance', 'rejection', 'reminder'] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];

export interface SendApplicationEmailInput {
  applicationId: string;
  kind: EmailKind;
  /** The decision the review task returned (rejection: its note), if the state machine passes it. */
  review?: Partial<ApplicationDecisionRecord>;
}

/** The decision's message to the applicant: from the review the state machine passed, else the stored decision. */
const messageOf = (input: Omit<SendApplicationEmailInput, 'kind'>, app: StoredApplication) =>
  input.review?.messageToApplicant ?? app.decision?.messageToApplicant;

/**
 * The applicant's email of one kind, as it is sent (the console's decision preview renders it
 * with this too). The acceptance and rejection emails carry the decision's message to the
 * applicant, never the reviewer's internal note.
 */
export async function composeApplicationEmail(
  deps: { store: FoundingStore; siteUrl: string },
  app: StoredApplication,
  input: Omit<SendApplicationEmailInput, 'kind'> & { kind: Exclude<EmailKind, 'reminder'> },
): Promise<Email> {
  const common = { firstName: app.firstName, program: app.program, siteUrl: deps.siteUrl };
  switch (input.kind) {
    case 'confirmation':
      return applicationConfirmationEmail({ ...common, applicationId: app.id ?? input.applicationId, validPhotoCount: app.validPhotoCount ?? 0 });
    case 'invalid':
      return invalidPhotosEmail({
        ...common,
        applicationId: app.id ?? input.applicationId,
        validPhotoCount: app.validPhotoCount ?? 0,
        reasons: (app.photoResults ?? []).filter((r) => !r.accepted && r.reason).map((r) => r.reason!),
      });
    case 'acceptance': {
      let spotNumber = app.spotNumber;
      if (app.founding && spotNumber === undefined) {
        spotNumber = await deps.store.spotNumberOf(input.applicationId);
      }
      return acceptanceEmail({ ...common, founding: Boolean(app.founding && spotNumber), spotNumber, messageToApplicant: messageOf(input, app) });
    }
    case 'rejection':
      return rejectionEmail({ ...common, messageToApplicant: messageOf(input, app) });
    default:
      throw new Error(`unknown email kind ${input.kind}`);
  }
}
