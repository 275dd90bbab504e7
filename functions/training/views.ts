// What the talent and the console see of a likeness model and its trainings (events/training.ts),
// built from the stored records: never a task token, a key or a Replicate id.
import {
  MAX_TALENT_RETRAINS,
  RUNNING_TRAINING_STATUSES,
  TRAINING_FAILURE_TEXTS,
  type ModelState,
} from '../../events/training-values';
import type { AdminTrainingView, AdminTrainingsResponse, LikenessModelView, SampleView, TrainingFailureView } from '../../events/training';
import type { LikenessModelRecord, TrainingRecord } from './store';

/** A short-lived URL of a stored sample image. */
export type SampleUrl = (key: string) => Promise<string>;

/**
 * The model's state for its talent: the latest training decides while it runs or waits for
 * review (`retraining` once there was a training before it); an approved one is `live`; a failed or
 * rejected latest one leaves the live version live, or the model `failed` without one.
 */
export function modelStateOf(model: LikenessModelRecord | undefined, trainings: readonly TrainingRecord[]): ModelState {
  if (!model) return 'none';
  const latest = trainings.find((t) => t.id === model.currentTrainingId);
  if (!latest) return model.liveTrainingId ? 'live' : 'none';
  if (RUNNING_TRAINING_STATUSES.includes(latest.status)) {
    if (latest.number > 1 || model.liveTrainingId) return 'retraining';
    return latest.status === 'preparing' ? 'preparing' : 'training';
  }
  if (latest.status === 'ready-for-review') return 'ready-for-review';
  if (latest.status === 'approved' || model.liveTrainingId) return 'live';
  return 'failed';
}

const retrainsLeft = (model: LikenessModelRecord | undefined) => Math.max(0, MAX_TALENT_RETRAINS - (model?.rejections ?? 0));

async function samplesOf(training: TrainingRecord, url: SampleUrl): Promise<SampleView[]> {
  const stored = (training.samples ?? []).filter((s): s is typeof s & { key: string } => Boolean(s.key) && !training.deletedAt);
  return Promise.all(stored.map(async (s) => ({ prompt: s.prompt, url: await url(s.key) })));
}

const failureOf = (t: TrainingRecord): TrainingFailureView | undefined =>
  t.failure ? { code: t.failure.code, message: t.failure.message || TRAINING_FAILURE_TEXTS[t.failure.code], at: t.failure.at } : undefined;

/** `GET /me/likeness-model`. */
export async function likenessModelView(model: LikenessModelRecord | undefined, trainings: readonly TrainingRecord[], url: SampleUrl): Promise<LikenessModelView> {
  const state = modelStateOf(model, trainings);
  const latest = trainings.find((t) => t.id === model?.currentTrainingId);
  const live = trainings.find((t) => t.id === model?.liveTrainingId);
  const view: LikenessModelView = { state, retrainsLeft: retrainsLeft(model) };
  if (latest) {
    view.latest = {
      trainingId: latest.id,
      number: latest.number,
      status: latest.status,
      createdAt: latest.createdAt,
      ...(latest.readyAt ? { readyAt: latest.readyAt } : {}),
      // A running training's samples are not ready; a reviewed one's are kept to look back at.
      samples: RUNNING_TRAINING_STATUSES.includes(latest.status) ? [] : await samplesOf(latest, url),
    };
    const failure = failureOf(latest);
    if (failure && latest.status === 'failed') view.failure = failure;
  }
  if (live?.approvedAt) view.live = { trainingId: live.id, number: live.number, approvedAt: live.approvedAt, samples: await samplesOf(live, url) };
  return view;
}

/** One training in the console's list. */
async function adminTrainingView(t: TrainingRecord, model: LikenessModelRecord | undefined, url: SampleUrl): Promise<AdminTrainingView> {
  const optional = {
    requestedBy: t.requestedBy,
    note: t.note,
    steps: t.settings?.steps ?? t.steps,
    trainer: t.settings ? `${t.settings.trainer}:${t.settings.trainerVersion}` : undefined,
    imageCount: t.imageCount,
    startedAt: t.startedAt,
    completedAt: t.completedAt,
    durationSeconds: t.durationSeconds,
    costMicros: t.costMicros,
    logsUrl: t.logsUrl,
    version: t.versionRef,
    approvedAt: t.approvedAt,
    review: t.review,
    failure: failureOf(t),
    restored: t.restored,
    deletedAt: t.deletedAt,
  };
  return {
    id: t.id,
    number: t.number,
    reason: t.reason,
    status: t.status,
    createdAt: t.createdAt,
    ...Object.fromEntries(Object.entries(optional).filter(([, v]) => v !== undefined)),
    live: model?.liveTrainingId === t.id,
    samples: await samplesOf(t, url),
  };
}

/** `GET /admin/talent/{id}/trainings`: newest first. */
export async function adminTrainingsView(talentId: string, model: LikenessModelRecord | undefined, trainings: readonly TrainingRecord[], url: SampleUrl): Promise<AdminTrainingsResponse> {
  return {
    talentId,
    state: modelStateOf(model, trainings),
    ...(model ? { model: model.replicateModel, triggerWord: model.triggerWord } : {}),
    rejections: model?.rejections ?? 0,
    retrainsLeft: retrainsLeft(model),
    trainings: await Promise.all([...trainings].sort((a, b) => b.number - a.number).map((t) => adminTrainingView(t, model, url))),
  };
}
