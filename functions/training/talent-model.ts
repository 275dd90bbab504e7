// What the talent's likeness model routes share (routes/get-my-likeness-model and
// routes/review-likeness-model): the caller's talent (the accounts wing's `callerTalent`: the
// request never names one) and their model as they see it.
import type { LikenessModelView } from '../../events/training';
import type { CallerTalentDeps } from '../accounts';
import type { TrainingStore } from './store';
import { likenessModelView, type SampleUrl } from './views';

export interface TalentModelDeps extends CallerTalentDeps {
  store: Pick<TrainingStore, 'getModel' | 'getTraining' | 'listTrainings'>;
  sampleUrl: SampleUrl;
}

/** The talent's model as they see it, with short-lived sample URLs. */
export async function modelViewOf(deps: TalentModelDeps, talentId: string): Promise<LikenessModelView> {
  const [model, trainings] = await Promise.all([deps.store.getModel(talentId), deps.store.listTrainings(talentId)]);
  return likenessModelView(model, trainings, deps.sampleUrl);
}
