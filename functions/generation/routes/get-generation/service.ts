import type { Generation } from '../../../../events/generations';
import { currentAccount, type AccountStore } from '../../../accounts';
import type { AccountCaller } from '../../../shared/auth';
import { positionOf } from '../../admission';
import type { GenerationStore } from '../../store';
import { generationView, ownGeneration, type ImageSigner } from '../../views';

export interface MyGenerationDeps {
  accounts: Pick<AccountStore, 'get' | 'create'>;
  generations: Pick<GenerationStore, 'get' | 'admissionQueue'>;
  signer: Pick<ImageSigner, 'view'>;
}

/**
 * `GET /generations/{id}` (the owner): the generation with short-lived image URLs; 404 for anyone
 * else's. A start waiting for admission under Replicate's creation limit shows its place in the
 * queue (decision 065).
 */
export async function myGeneration(deps: MyGenerationDeps, caller: AccountCaller, id: string): Promise<Generation> {
  const account = await currentAccount(deps.accounts, caller);
  const record = await ownGeneration(deps.generations, account.id, id);
  const view = await generationView(record, deps.signer);
  if (record.status !== 'queued' || !record.queuedAt || record.admittedAt || record.admissionRefusedAt) return view;
  const { bucket, entries } = await deps.generations.admissionQueue();
  const position = positionOf(entries, bucket?.lastClient, record.id);
  return position === undefined ? view : { ...view, queue: { position, since: record.queuedAt } };
}
