// Workflow step AwaitIdentity (functions/founding/steps/await-identity): the review waits for the
// proof of person. The token is stored in an attribute of its own before the application is read,
// so neither the applicant's consent nor the face checks can miss it: an outcome already there
// resumes the step at once, a consent given before the photos were validated asks for the check.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { awaitIdentity } from '../../../functions/founding/steps/await-identity/service';
import type { StoredIdentity } from '../../../functions/founding/store';
import { application, ID, mockedStore } from './support';

function run(identity?: StoredIdentity) {
  const { store, inputs } = mockedStore(application(identity ? { identity } : {}));
  const resumed: Array<{ token: string; output: object }> = [];
  const requested: string[] = [];
  const deps = { store, resume: async (token: string, output: object) => void resumed.push({ token, output }), requestCheck: async (id: string) => void requested.push(id) };
  return { deps, resumed, requested, updates: () => inputs(UpdateCommand) };
}

describe('AwaitIdentity', () => {
  it('stores its token in its own attribute, never rewriting the identity the applicant writes', async () => {
    const w = run();
    expect(await awaitIdentity(w.deps, ID, 'token-1')).toEqual({ waiting: true });
    const [update] = w.updates();
    expect(Object.values(update.ExpressionAttributeNames)).toEqual(['identityTaskToken']);
    expect(Object.values(update.ExpressionAttributeValues)).toEqual(['token-1']);
    expect(w.resumed).toEqual([]);
    expect(w.requested).toEqual([]);
  });

  it.each(['manual', 'checked'] as const)('resumes itself when the outcome is already %s', async (state) => {
    const w = run({ state, faceConsent: state === 'manual' ? 'declined' : 'given' });
    expect(await awaitIdentity(w.deps, ID, 'token-2')).toEqual({ waiting: false });
    expect(w.resumed).toEqual([{ token: 'token-2', output: { identity: state } }]);
  });

  it('asks for the face checks when the consent came before the photos were validated', async () => {
    const w = run({ state: 'checking', faceConsent: 'given' });
    expect(await awaitIdentity(w.deps, ID, 'token-3')).toEqual({ waiting: true });
    expect(w.requested).toEqual([ID]);
    expect(w.resumed).toEqual([]);
  });
});
