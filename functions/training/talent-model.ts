// What the talent's likeness model routes share (routes/get-my-likeness-model and
// routes/review-likeness-model): who the caller is and which talent they are, and their model as
// they see it. The request never names a talent: it is the caller's own, from their accepted
// application.
import type { LikenessModelView } from '../../events/training';
import { currentAccount, NO_LIKENESS_MESSAGE, requireAcceptedTalent, type AccountStore, type StandingDeps } from '../accounts';
import type { AccountCaller } from '../shared/auth';
import { ConflictError } from '../shared/errors';
import type { TrainingStore } from './store';
import { likenessModelView, type SampleUrl } from './views';

export interface TalentModelDeps {
  accounts: Pick<AccountStore, 'get' | 'create'>;
  standing: StandingDeps;
  store: Pick<TrainingStore, 'getModel' | 'getTraining' | 'listTrainings'>;
  sampleUrl: SampleUrl;
}

/** The caller's talent id: an accepted talent's own, whatever the request names (it names none). */
export async function callerTalent(deps: TalentModelDeps, caller: AccountCaller): Promise<{ accountId: string; talentId: string }> {
  const account = await currentAccount(deps.accounts, caller);
  const { likeness } = await requireAcceptedTalent(deps.standing, caller);
  if (!likeness) throw new ConflictError(NO_LIKENESS_MESSAGE);
  return { accountId: account.id, talentId: likeness.talentId };
}

/** The talent's model as they see it, with short-lived sample URLs. */
export async function modelViewOf(deps: TalentModelDeps, talentId: string): Promise<LikenessModelView> {
  const [model, trainings] = await Promise.all([deps.store.getModel(talentId), deps.store.listTrainings(talentId)]);
  return likenessModelView(model, trainings, deps.sampleUrl);
}
