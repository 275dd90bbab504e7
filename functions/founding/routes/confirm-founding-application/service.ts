import {
  AWAITING_CONFIRMATION,
  CONFIRMATION_MESSAGES,
  CONFIRMS_PER_ADDRESS_PER_HOUR,
  CONFIRMS_PER_IP_PER_HOUR,
  FOUNDING_MESSAGES,
  type FoundingConfirmRequest,
  type FoundingConfirmResponse,
} from '../../../../events/founding';
import { AppError, ConflictError, NotFoundError } from '../../../shared/errors';
import { log } from '../../../shared/log';
import type { RateLimiter } from '../../../shared/rate-limit';
import { ApplicationNotFoundError, type FoundingStore, type StoredApplication } from '../../store';
import { announce, confirmTokenHash } from '../../confirmation';
import { identityTokenIssued, identityTokenOfConfirmation, issueIdentityToken } from '../../identity/tokens';

export interface ConfirmDeps {
  store: FoundingStore;
  publish: (detailType: string, detail: object) => Promise<void>;
  limit: RateLimiter;
}

/** The link was used or has expired: 410, with what happened. */
class GoneError extends AppError {
  constructor(message: string) {
    super(message, 410);
  }
}

/**
 * `POST /founding-confirm`: the applicant's confirmation link, posted from the site's confirm
 * page. In one transaction the token is used up, the address's one-application lock is taken
 * and the application enters review; then `FoundingApplication.Submitted` starts the workflow.
 * A second confirmed application for the address gets the spec's duplicate message (409).
 */
export async function confirmApplication(deps: ConfirmDeps, req: FoundingConfirmRequest, origin: { ip: string }): Promise<FoundingConfirmResponse> {
  await deps.limit([
    { name: 'founding-confirm.ip', subject: origin.ip, limit: CONFIRMS_PER_IP_PER_HOUR, windowSeconds: 3600, message: CONFIRMATION_MESSAGES.tooManyConfirms },
  ]);
  const tokenHash = confirmTokenHash(req.token);
  const token = await deps.store.getConfirmToken(tokenHash);
  if (!token) throw new NotFoundError(CONFIRMATION_MESSAGES.invalidLink);
  const app = await applicationOf(deps, token.applicationId);
  await deps.limit([
    {
      name: 'founding-confirm.address',
      subject: app.email,
      limit: CONFIRMS_PER_ADDRESS_PER_HOUR,
      windowSeconds: 3600,
      message: CONFIRMATION_MESSAGES.tooManyConfirmsForAddress,
    },
  ]);
  const answer: FoundingConfirmResponse = { success: true, applicationId: app.id, program: app.program, message: CONFIRMATION_MESSAGES.confirmed };

  const identityToken = identityTokenOfConfirmation(req.token);
  if (token.usedAt) return alreadyUsed(deps, app, token.usedAt, { ...answer, identityToken });
  if (token.expiresAt * 1000 <= deps.store.now().getTime()) throw new GoneError(CONFIRMATION_MESSAGES.expiredLink);
  if (app.status !== AWAITING_CONFIRMATION || !app.fingerprint || !app.response) throw new GoneError(CONFIRMATION_MESSAGES.usedLink);

  const outcome = await deps.store.confirmApplication(app, tokenHash, {
    applicationId: app.id,
    fingerprint: app.fingerprint,
    submittedAt: app.submittedAt,
    response: app.response,
  });
  if (outcome === 'duplicate') {
    const lock = await deps.store.getEmailLock(app.email);
    // The same link posted twice at once: the other request confirmed it.
    if (lock?.applicationId === app.id) throw new GoneError(CONFIRMATION_MESSAGES.usedLink);
    log.info('founding confirmation refused: address has an application', { applicationId: app.id });
    throw new ConflictError(FOUNDING_MESSAGES.alreadyExists);
  }
  if (outcome === 'refused') {
    const again = await deps.store.getConfirmToken(tokenHash);
    if (again?.usedAt) throw new GoneError(CONFIRMATION_MESSAGES.usedLink);
    throw new GoneError(CONFIRMATION_MESSAGES.expiredLink);
  }

  await announce(deps, app.id, app.program, app.submittedAt);
  log.info('founding application confirmed', { applicationId: app.id, program: app.program });
  // The confirmation page goes on to the consent and the live selfie with this (docs/identity.md).
  await issueIdentityToken(deps.store, app.id, identityToken);
  return { ...answer, identityToken };
}

async function applicationOf(deps: ConfirmDeps, applicationId: string): Promise<StoredApplication> {
  try {
    return await deps.store.getApplication(applicationId);
  } catch (err) {
    // The unconfirmed application expired (TTL) before its token did.
    if (err instanceof ApplicationNotFoundError) throw new GoneError(CONFIRMATION_MESSAGES.expiredLink);
    throw err;
  }
}

/**
 * How long after a confirmation the same link is answered as the confirmation was: a retry of a
 * request whose answer was lost (a time-out on the way back) gets it again, not "already used".
 */
const CONFIRM_REPLAY_MS = 15 * 60_000;

/**
 * A used link is refused, unless the confirmation it made failed part way: stored but not
 * announced (it is announced now), or announced without its identity token (issued now), or
 * made in the last CONFIRM_REPLAY_MS (its answer may not have arrived). In each case the
 * applicant goes on to the consent and the selfie with the link's own identity token.
 */
async function alreadyUsed(
  deps: ConfirmDeps,
  app: StoredApplication,
  usedAt: string,
  answer: FoundingConfirmResponse & { identityToken: string },
): Promise<FoundingConfirmResponse> {
  const unannounced = app.submittedEvent === 'failed';
  const replay = deps.store.now().getTime() - Date.parse(usedAt) < CONFIRM_REPLAY_MS;
  if (!unannounced && !replay && (await identityTokenIssued(deps.store, answer.identityToken))) throw new GoneError(CONFIRMATION_MESSAGES.usedLink);
  if (unannounced) await announce(deps, app.id, app.program, app.submittedAt);
  await issueIdentityToken(deps.store, app.id, answer.identityToken);
  log.info('founding confirmation finished on a retry', { applicationId: app.id, announced: unannounced });
  return answer;
}
