import { erasePerson, type ErasureDeps } from '../../../functions/console/routes/erase-person/service';
import { ApplicationBeingValidatedError } from '../../../functions/founding/store';

/** Fakes for every place, recording what was called in order. */
function fakes(options: { validating?: boolean } = {}) {
  const calls: string[] = [];
  const deps: ErasureDeps = {
    eraseFounding: async () => {
      calls.push('founding');
      if (options.validating) throw new ApplicationBeingValidatedError();
      return { applicationIds: ['app_aaaaaaaaaaaaaaaaaaaa'], uploadFolders: ['f'.repeat(32)], items: 7 };
    },
    deleteAccounts: async () => (calls.push('accounts'), 1),
    eraseAccountData: async () => (calls.push('account data'), 6),
    eraseWaitlist: async () => (calls.push('waitlist'), 3),
    eraseMessages: async () => (calls.push('messages'), 2),
    deletePhotos: async (prefix) => (calls.push(`photos ${prefix}`), prefix.startsWith('applications/') ? 60 : 30),
    eraseIdempotencyRecords: async () => (calls.push('idempotency'), 1),
    record: async (_email, erasedBy, removed, now) => (calls.push('record'), { id: 'r1', erasedAt: now.toISOString(), erasedBy, removed }),
    now: () => new Date('2026-11-24T12:00:00Z'),
  };
  return { deps, calls };
}

describe('erasePerson', () => {
  it('erases every place, photos under the application and its upload folder, then records the counts', async () => {
    const { deps, calls } = fakes();
    const result = await erasePerson(deps, 'ada@example.com', 'admin-sub');
    expect(calls).toEqual([
      'founding',
      'accounts',
      'account data',
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
      removed: { waitlist: 3, messages: 2, applications: 1, applicationItems: 7, photos: 90, accounts: 1, accountItems: 6, idempotencyRecords: 1 },
    });
  });

  it('erases nothing and answers 409 while an application of the address is being validated', async () => {
    const { deps, calls } = fakes({ validating: true });
    await expect(erasePerson(deps, 'ada@example.com', 'admin-sub')).rejects.toMatchObject({
      status: 409,
      message: 'An application from this address is having its photos checked right now. Nothing was erased; try again in a few minutes.',
    });
    expect(calls).toEqual(['founding']);
  });
});
