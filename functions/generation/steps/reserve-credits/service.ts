import { InsufficientCreditsError, type CreditLedger } from '../../../accounts';
import type { GenerationStore } from '../../store';
import { InsufficientCredits } from '../../errors';
import { generationOf, reserveKey } from '../../prediction';

export interface ReserveCreditsDeps {
  store: GenerationStore;
  ledger: CreditLedger;
  now: () => Date;
}

/**
 * Step ReserveCredits: takes one credit per image from the client's balance in one conditional
 * ledger transaction. A short balance ends the generation with `insufficient-credits` and the
 * ledger's message; nothing is reserved then.
 */
export async function reserveCredits(deps: ReserveCreditsDeps, generationId: string): Promise<{ reserved: number }> {
  const generation = await generationOf(deps.store, generationId);
  const credits = generation.count;
  try {
    await deps.ledger.reserve(generation.accountId, {
      credits,
      key: reserveKey(generationId),
      generationId,
      reason: `${credits} ${credits === 1 ? 'image' : 'images'} with ${generation.talentName}`,
    });
  } catch (err) {
    if (err instanceof InsufficientCreditsError) throw new InsufficientCredits(err.message);
    throw err;
  }
  await deps.store.recordStep(
    generationId,
    { step: 'ReserveCredits', at: deps.now().toISOString(), detail: `${credits} ${credits === 1 ? 'credit' : 'credits'} reserved`, once: true },
    { creditsReserved: credits },
  );
  return { reserved: credits };
}
