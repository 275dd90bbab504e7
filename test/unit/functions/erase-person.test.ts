import { erasePerson, type ErasureDeps } from '../../../functions/console/routes/erase-person/service';
import { ApplicationBeingValidatedError } from '../../../functions/founding/store';
import type { ClientGenerations } from '../../../functions/generation/store';
import { StripeUnavailableForErasureError } from '../../../functions/payments/erasure';
import Stripe from 'stripe';

const NOW = new Date('2026-11-24T12:00:00Z');
const minutesAgo = (n: number) => new Date(NOW.getTime() - n * 60_000).toISOString();

/** Fakes for every place, recording what was called in order. */
function fakes(options: { validating?: boolean; generations?: ClientGenerations['generations']; talentIds?: string[]; stripeDown?: boolean } = {}) {
  const calls: string[] = [];
  const found: ClientGenerations = {
    accountIds: ['acc-1'],
    generations: options.generations ?? [{ id: 'gen-1', accountId: 'acc-1', status: 'succeeded', updatedAt: minutesAgo(5) }],
    licenses: [{ id: 'lic_aaaaaaaaaaaaaaaaaaaaaa', accountId: 'acc-1', key: 'generations/acc-1/gen-1/lic_aaaaaaaaaaaaaaaaaaaaaa.png' }],
  };
  const deps: ErasureDeps = {
    planFounding: async () => {
      calls.push('find founding');
      if (options.validating) throw new ApplicationBeingValidatedError();
      return { applicationIds: ['app_aaaaaaaaaaaaaaaaaaaa'], uploadFolders: ['f'.repeat(32)], talentIds: options.talentIds ?? ['ada-talent'], verificationSessionIds: ['vs_1'], items: [] };
    },
    redactVerifications: async (ids) => (calls.push(`redact ${ids.join(',')}`), ids.length),
    eraseFounding: async (plan) => (calls.push('founding'), { applicationIds: plan.applicationIds, uploadFolders: plan.uploadFolders, items: 7 }),
    findGenerations: async () => (calls.push('find generations'), found),
    eraseGenerations: async (given, at) => (calls.push(`generations of ${given.accountIds.join(',')} at ${at.toISOString()}`), { generations: 1, licenses: 1, images: 2 }),
    eraseTalentPayouts: async (talentId, at) => (calls.push(`payouts of ${talentId} at ${at.toISOString()}`), { payoutDetails: 1, statements: 3 }),
    eraseLikenessModel: async (talentId) => (calls.push(`likeness model of ${talentId}`), { versions: 2, files: 9, records: 4 }),
    deleteAccounts: async () => (calls.push('accounts'), 1),
    eraseAccountData: async () => (calls.push('account data'), 6),
    eraseWaitlist: async () => (calls.push('waitlist'), 3),
    eraseMessages: async () => (calls.push('messages'), 2),
    deletePhotos: async (prefix) => (calls.push(`photos ${prefix}`), prefix.startsWith('applications/') ? 60 : 30),
    eraseIdempotencyRecords: async () => (calls.push('idempotency'), 1),
    erasePayments: async (_email, at) => {
      calls.push(`payments at ${at.toISOString()}`);
      if (options.stripeDown) throw new StripeUnavailableForErasureError('canceling a subscription', new Stripe.errors.StripeConnectionError({ message: 'connect ECONNREFUSED' }));
      return { subscriptionsCanceled: 1, stripeCustomersDeleted: 1, paymentsAnonymised: 2 };
    },
    record: async (_email, erasedBy, removed, now) => (calls.push('record'), { id: 'r1', erasedAt: now.toISOString(), erasedBy, removed }),
    now: () => NOW,
  };
  return { deps, calls };
}

describe('erasePerson', () => {
  it('finds first, then erases the talent\'s payouts, founding, account, generations and the rest, and records the counts', async () => {
    const { deps, calls } = fakes();
    const result = await erasePerson(deps, 'ada@example.com', 'admin-sub');
    expect(calls).toEqual([
      'find founding',
      'find generations',
      // Stripe first: when it fails nothing else is erased yet, and no renewal charges after.
      'payments at 2026-11-24T12:00:00.000Z',
      // While the application still leads to the talent, so a repeated run finds them again.
      'payouts of ada-talent at 2026-11-24T12:00:00.000Z',
      'likeness model of ada-talent',
      // Stripe's copy of the ID verification, while the items still name its sessions.
      'redact vs_1',
      'founding',
      'accounts',
      'account data',
      'generations of acc-1 at 2026-11-24T12:00:00.000Z',
      'waitlist',
      'messages',
      'photos applications/app_aaaaaaaaaaaaaaaaaaaa/',
      `photos pending/${'f'.repeat(32)}/`,
      'idempotency',
      'record',
    ]);
    expect(result).toEqual({
      id: 'r1',
      erasedAt: '2026-11-24T12:00:00.000Z',
      erasedBy: 'admin-sub',
      removed: {
        waitlist: 3,
        messages: 2,
        applications: 1,
        applicationItems: 7,
        photos: 90,
        accounts: 1,
        accountItems: 6,
        idempotencyRecords: 1,
        generations: 1,
        licenses: 1,
        images: 2,
        payoutDetails: 1,
        statements: 3,
        modelVersions: 2,
        trainingFiles: 9,
        trainingRecords: 4,
        subscriptionsCanceled: 1,
        stripeCustomersDeleted: 1,
        paymentsAnonymised: 2,
      },
    });
  });

  it('stops with 503 before erasing anything else when Stripe fails, saying to try again', async () => {
    const { deps, calls } = fakes({ stripeDown: true });
    await expect(erasePerson(deps, 'ada@example.com', 'admin-sub')).rejects.toMatchObject({
      status: 503,
      message:
        "Stripe failed while erasing the client's payments (canceling a subscription: StripeConnectionError). Their subscription may still be live, so nothing else of this person was erased; try the erasure again in a few minutes.",
    });
    expect(calls).toEqual(['find founding', 'find generations', 'payments at 2026-11-24T12:00:00.000Z']);
  });

  it('deletes the likeness model of every talent the address became, and counts them all; none for a person who was no talent', async () => {
    const two = fakes({ talentIds: ['ada-talent', 'ada-again'] });
    const result = await erasePerson(two.deps, 'ada@example.com', 'admin-sub');
    expect(two.calls.filter((c) => c.startsWith('likeness model'))).toEqual(['likeness model of ada-talent', 'likeness model of ada-again']);
    expect(result.removed).toMatchObject({ modelVersions: 4, trainingFiles: 18, trainingRecords: 8 });

    const client = fakes({ talentIds: [] });
    expect((await erasePerson(client.deps, 'ada@example.com', 'admin-sub')).removed).toMatchObject({ modelVersions: 0, trainingFiles: 0, trainingRecords: 0 });
    expect(client.calls.some((c) => c.startsWith('likeness model'))).toBe(false);
  });

  it('erases nothing and answers 409 while an application of the address is being validated', async () => {
    const { deps, calls } = fakes({ validating: true });
    await expect(erasePerson(deps, 'ada@example.com', 'admin-sub')).rejects.toMatchObject({
      status: 409,
      message: 'An application from this address is having its photos checked right now. Nothing was erased; try again in a few minutes.',
    });
    expect(calls).toEqual(['find founding']);
  });

  it('erases nothing and answers 409 while a generation of the address is running; a stuck one does not block', async () => {
    const running = fakes({ generations: [{ id: 'gen-2', accountId: 'acc-1', status: 'processing', updatedAt: minutesAgo(2) }] });
    await expect(erasePerson(running.deps, 'ada@example.com', 'admin-sub')).rejects.toMatchObject({
      status: 409,
      message: 'An image generation of this address is running right now. Nothing was erased; try again in a few minutes.',
    });
    expect(running.calls).toEqual(['find founding', 'find generations']);

    // Not updated for over an hour: stuck, not running (it would otherwise block erasure for good).
    const stuck = fakes({ generations: [{ id: 'gen-3', accountId: 'acc-1', status: 'queued', updatedAt: minutesAgo(61) }] });
    await expect(erasePerson(stuck.deps, 'ada@example.com', 'admin-sub')).resolves.toMatchObject({ removed: { generations: 1 } });
  });
});
