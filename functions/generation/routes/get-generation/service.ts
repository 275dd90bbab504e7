import type { Generation } from '../../../../events/generations';
import { currentAccount, type AccountStore } from '../../../accounts';
import type { AccountCaller } from '../../../shared/auth';
import type { GenerationStore } from '../../store';
import { generationView, ownGeneration, type ImageSigner } from '../../views';

export interface MyGenerationDeps {
  accounts: Pick<AccountStore, 'get' | 'create'>;
  generations: Pick<GenerationStore, 'get'>;
  signer: Pick<ImageSigner, 'view'>;
}

/** `GET /generations/{id}` (the owner): the generation with short-lived image URLs; 404 for anyone else's. */
export async function myGeneration(deps: MyGenerationDeps, caller: AccountCaller, id: string): Promise<Generation> {
  const account = await currentAccount(deps.accounts, caller);
  return generationView(await ownGeneration(deps.generations, account.id, id), deps.signer);
}
