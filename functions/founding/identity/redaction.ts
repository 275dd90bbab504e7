// Stripe's copy of an applicant's ID verification (the document's images and number, the date of
// birth, the selfie) is redacted through Stripe's API when the application is refused or erased
// (decision 056; docs/identity.md, "Verified identity"). We keep findings, never those.
import type Stripe from 'stripe';
import { log } from '../../shared/log';
import type { FoundingStore, StoredApplication } from '../store';

type Sessions = Pick<Stripe['identity']['verificationSessions'], 'retrieve' | 'redact'>;

/** A session Stripe is still checking: it cannot be redacted yet (the caller's retry comes back). */
export class VerificationStillProcessingError extends Error {
  override name = 'VerificationStillProcessing';
}

/**
 * Redacts each session through Stripe's API, skipping those already redacted (or being
 * redacted). A session Stripe is still checking cannot be redacted: throws
 * VerificationStillProcessingError after the others, so the caller tries again later. Answers
 * how many were asked to redact now.
 */
export async function redactVerificationSessions(sessions: Sessions, sessionIds: readonly string[]): Promise<number> {
  let redacted = 0;
  let processing: string | undefined;
  for (const id of sessionIds) {
    const session = await sessions.retrieve(id);
    if (session.redaction) continue;
    if (session.status === 'processing') {
      processing = id;
      continue;
    }
    await sessions.redact(id);
    redacted++;
  }
  if (processing) throw new VerificationStillProcessingError(`VerificationSession ${processing} is being checked by Stripe and cannot be redacted yet`);
  return redacted;
}

/**
 * Redacts the application's sessions at Stripe and records `verification.redactedAt` once. Safe to
 * repeat: an application whose verification is redacted (or that has none) changes nothing.
 */
export async function redactVerification(
  deps: { stripe: () => Promise<{ identity: { verificationSessions: Sessions } }>; store: Pick<FoundingStore, 'recordVerificationRedacted' | 'addHistory' | 'now'> },
  app: Pick<StoredApplication, 'id' | 'verification'>,
): Promise<void> {
  const verification = app.verification;
  if (!verification || verification.redactedAt || verification.attempts.length === 0) return;
  const stripe = await deps.stripe();
  const count = await redactVerificationSessions(stripe.identity.verificationSessions, verification.attempts.map((a) => a.sessionId));
  const redactedAt = deps.store.now().toISOString();
  if (await deps.store.recordVerificationRedacted(app.id, redactedAt)) {
    await deps.store.addHistory(app.id, 'ID verification redacted at Stripe', { note: `${verification.attempts.length} sessions (${count} redacted now)` });
  }
  log.info('verification redacted at Stripe', { applicationId: app.id, sessions: verification.attempts.length, redacted: count });
}
