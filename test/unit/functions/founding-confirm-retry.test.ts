// POST /founding-confirm retried after it failed part way (docs/identity.md "Consent and the
// selfie"): the application was confirmed but its identity token was not stored (or the answer
// was lost). The retry finishes the confirmation with the link's own identity token, which then
// opens the application; a link used to the end stays refused.
import { AWAITING_CONFIRMATION, CONFIRMATION_MESSAGES } from '../../../events/founding';
import { confirmTokenHash } from '../../../functions/founding/confirmation';
import { newApplicationId } from '../../../functions/founding/keys';
import { applicationOfToken } from '../../../functions/founding/identity/tokens';
import { confirmApplication, type ConfirmDeps } from '../../../functions/founding/routes/confirm-founding-application/service';
import type { FoundingStore, StoredApplication } from '../../../functions/founding/store';

const LINK = 'a-confirmation-link-token-of-forty-three-char';

/** The founding store as the confirmation uses it, in memory; `failIdentityPuts` makes the next puts of identity tokens throw. */
function memoryStore(app: StoredApplication) {
  const clock = { now: new Date('2026-11-27T12:00:00Z') };
  const now = clock.now;
  const confirmTokens = new Map([[confirmTokenHash(LINK), { applicationId: app.id, expiresAt: now.getTime() / 1000 + 3600, usedAt: undefined as string | undefined }]]);
  const identityTokens = new Map<string, { applicationId: string; expiresAt: number; purpose: 'identity' | 'replace' }>();
  const state = { app: { ...app }, failIdentityPuts: 0, clock };
  const store = {
    now: () => clock.now,
    getConfirmToken: async (hash: string) => confirmTokens.get(hash),
    getApplication: async () => ({ ...state.app }),
    markAnnounced: async () => {
      delete state.app.submittedEvent;
    },
    markAnnouncementFailed: async () => {
      state.app = { ...state.app, submittedEvent: 'failed' };
    },
    confirmApplication: async (_app: StoredApplication, hash: string) => {
      const token = confirmTokens.get(hash)!;
      if (token.usedAt) return 'refused' as const;
      token.usedAt = now.toISOString();
      state.app = { ...state.app, status: 'validating' as StoredApplication['status'] };
      return 'confirmed' as const;
    },
    getEmailLock: async () => undefined,
    putIdentityToken: async (hash: string, token: { applicationId: string; expiresAt: number; purpose: 'identity' | 'replace' }) => {
      if (state.failIdentityPuts > 0) {
        state.failIdentityPuts--;
        throw Object.assign(new Error('Throughput exceeds the current capacity'), { name: 'ThrottlingException' });
      }
      identityTokens.set(hash, token);
    },
    getIdentityToken: async (hash: string) => identityTokens.get(hash),
  };
  return { store: store as unknown as FoundingStore, state, identityTokens };
}

function application(): StoredApplication {
  return {
    id: newApplicationId(),
    program: 'founding',
    status: AWAITING_CONFIRMATION,
    email: 'ana@people.example',
    submittedAt: '2026-11-27T11:00:00.000Z',
    fingerprint: 'f'.repeat(64),
    response: { success: true },
  } as unknown as StoredApplication;
}

function deps(store: FoundingStore): ConfirmDeps & { published: string[] } {
  const published: string[] = [];
  return { store, published, publish: async (type) => void published.push(type), limit: async () => undefined };
}

describe('a confirmation retried after it failed part way', () => {
  it('gives the applicant the identity token on the retry when storing it failed the first time, and the token opens their application', async () => {
    const { store, state } = memoryStore(application());
    const d = deps(store);
    state.failIdentityPuts = 1;
    await expect(confirmApplication(d, { token: LINK }, { ip: '203.0.113.9' })).rejects.toThrow(/capacity/);
    expect(state.app.status).toBe('validating');

    const retried = await confirmApplication(d, { token: LINK }, { ip: '203.0.113.9' });
    expect(retried).toMatchObject({ success: true, applicationId: state.app.id, identityToken: expect.any(String) });
    expect((await applicationOfToken(store, retried.identityToken!)).id).toBe(state.app.id);
    // Announced once: the first attempt had announced it already.
    expect(d.published).toHaveLength(1);
  });

  it('announces a confirmation that was stored but not announced, with the identity token', async () => {
    const { store, state } = memoryStore(application());
    const d = deps(store);
    d.publish = async () => {
      throw new Error('EventBridge is down');
    };
    await expect(confirmApplication(d, { token: LINK }, { ip: '203.0.113.9' })).rejects.toThrow(/EventBridge/);
    expect(state.app.submittedEvent).toBe('failed');

    const published: string[] = [];
    d.publish = async (type) => void published.push(type);
    const retried = await confirmApplication(d, { token: LINK }, { ip: '203.0.113.9' });
    expect(published).toEqual(['FoundingApplication.Submitted']);
    expect((await applicationOfToken(store, retried.identityToken!)).id).toBe(state.app.id);
  });

  it('answers a retry soon after a confirmation as the confirmation was (its answer may have been lost), with the same identity token', async () => {
    const { store, state } = memoryStore(application());
    const d = deps(store);
    const first = await confirmApplication(d, { token: LINK }, { ip: '203.0.113.9' });
    state.clock.now = new Date(state.clock.now.getTime() + 10 * 60_000);
    expect(await confirmApplication(d, { token: LINK }, { ip: '203.0.113.9' })).toEqual(first);
    expect(d.published).toHaveLength(1);
  });

  it('refuses the link once it was used to the end, after the retry window', async () => {
    const { store, state } = memoryStore(application());
    const d = deps(store);
    expect((await confirmApplication(d, { token: LINK }, { ip: '203.0.113.9' })).identityToken).toBeDefined();
    state.clock.now = new Date(state.clock.now.getTime() + 16 * 60_000);
    await expect(confirmApplication(d, { token: LINK }, { ip: '203.0.113.9' })).rejects.toMatchObject({ status: 410, message: CONFIRMATION_MESSAGES.usedLink });
  });
});
