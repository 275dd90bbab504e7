// The applicant's identity token (docs/identity.md): minted on confirmation (the confirmation
// page, the QR code) and for each replace link, stored hashed, valid IDENTITY_TOKEN_DAYS. A
// token opens its own application only.
import { createHash, randomBytes } from 'node:crypto';
import { IDENTITY_TOKEN_DAYS } from '../../../events/identity';
import { AppError, NotFoundError } from '../../shared/errors';
import { ApplicationNotFoundError, type FoundingStore, type StoredApplication } from '../store';

const IDENTITY_LINK_MESSAGES = {
  unknown: 'This link is not one of ours, or its application no longer exists. Open the link from your latest email.',
  expired: `This link has expired (links work for ${IDENTITY_TOKEN_DAYS} days). Contact us to continue your application.`,
} as const;

const hashOf = (token: string) => createHash('sha256').update(`identity-token:${token}`).digest('hex');

/**
 * The identity token a confirmation gives, derived from the confirmation link's own secret token
 * (one way: the identity token does not lead back to the link). Derived rather than random, so a
 * confirmation retried after a failure part way (the application confirmed, the token not yet
 * stored or its answer lost) gives the applicant the same token instead of none.
 */
export function identityTokenOfConfirmation(confirmToken: string): string {
  return createHash('sha256').update(`identity-of-confirmation:${confirmToken}`).digest('base64url');
}

/** Whether the token is stored (issued before). */
export async function identityTokenIssued(store: Pick<FoundingStore, 'getIdentityToken'>, token: string): Promise<boolean> {
  return (await store.getIdentityToken(hashOf(token))) !== undefined;
}

/** Stores `token` for the application (a derived one; mintIdentityToken makes a random one), valid IDENTITY_TOKEN_DAYS. */
export async function issueIdentityToken(store: Pick<FoundingStore, 'putIdentityToken' | 'now'>, applicationId: string, token: string): Promise<void> {
  const expires = store.now().getTime() + IDENTITY_TOKEN_DAYS * 86_400_000;
  await store.putIdentityToken(hashOf(token), { applicationId, expiresAt: Math.floor(expires / 1000), purpose: 'identity' });
}

/** A new token for the application, stored by its hash. */
export async function mintIdentityToken(store: Pick<FoundingStore, 'putIdentityToken' | 'now'>, applicationId: string, purpose: 'identity' | 'replace'): Promise<{ token: string; expiresAt: string }> {
  const token = randomBytes(32).toString('base64url');
  const expires = store.now().getTime() + IDENTITY_TOKEN_DAYS * 86_400_000;
  await store.putIdentityToken(hashOf(token), { applicationId, expiresAt: Math.floor(expires / 1000), purpose });
  return { token, expiresAt: new Date(expires).toISOString() };
}

/** The application a token opens: 404 for an unknown token (or a gone application), 410 once expired. */
export async function applicationOfToken(store: Pick<FoundingStore, 'getIdentityToken' | 'getApplication' | 'now'>, token: string): Promise<StoredApplication> {
  const found = await store.getIdentityToken(hashOf(token));
  if (!found) throw new NotFoundError(IDENTITY_LINK_MESSAGES.unknown);
  if (found.expiresAt * 1000 <= store.now().getTime()) throw new AppError(IDENTITY_LINK_MESSAGES.expired, 410);
  try {
    return await store.getApplication(found.applicationId);
  } catch (err) {
    if (err instanceof ApplicationNotFoundError) throw new NotFoundError(IDENTITY_LINK_MESSAGES.unknown);
    throw err;
  }
}
