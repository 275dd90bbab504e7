import { likenessState } from '../../../../events/likeness';
import type { PublicTalent, TalentListResponse } from '../../../../events/talent';
import type { TalentStore } from '../../../catalog';

/**
 * The talent whose exclusive contract in force names this client account, as the public sees
 * them: the public library hides talent under contract, so the brand's create page adds these.
 * Hidden (inactive) talent stay out, like in the library.
 */
export async function exclusiveTalent(talent: Pick<TalentStore, 'listUnderContract'>, accountId: string, now: Date): Promise<TalentListResponse> {
  const mine: PublicTalent[] = [];
  for (const { talent: t, controls } of await talent.listUnderContract(accountId)) {
    if (t.status !== 'active' || controls.frozen?.accountId !== accountId || likenessState(controls, now) !== 'frozen') continue;
    const { status: _status, ...publicFields } = t;
    mine.push(publicFields);
  }
  return { talent: mine.sort((a, b) => a.name.localeCompare(b.name)) };
}
