import type { LikenessModelView } from '../../../events/training';
import { MAX_TALENT_RETRAINS, MODEL_STATES, TRAINING_FAILURE_TEXTS } from '../../../events/training-values';
import { currentStep, isRunning, modelStateText, pollDelayMs, retrainsText, sampleAlt, TRAINING_STEPS } from '../../../web/src/pages/portal/training/format';

const latest = (status: NonNullable<LikenessModelView['latest']>['status'], number = 1) => ({
  trainingId: 'trn_cdefghijklmnopqrstuv',
  number,
  status,
  createdAt: '2026-11-21T09:00:00.000Z',
  samples: [],
});
const liveVersion = { trainingId: 'trn_defghijklmnopqrstuvw', number: 1, approvedAt: '2026-11-21T10:00:00.000Z', samples: [] };

describe('likeness model card: words', () => {
  it('names every state with a label and a sentence', () => {
    const labels = MODEL_STATES.map((state) => modelStateText({ state, retrainsLeft: 3 }).label);
    expect(new Set(labels).size).toBe(MODEL_STATES.length);
    for (const state of MODEL_STATES) expect(modelStateText({ state, retrainsLeft: 3 }).body.length).toBeGreaterThan(20);
  });

  it('says whether clients keep the approved version while a new one is made', () => {
    expect(modelStateText({ state: 'retraining', retrainsLeft: 2, live: liveVersion }).body).toContain('keep generating with the version you approved');
    expect(modelStateText({ state: 'retraining', retrainsLeft: 2 }).body).toContain('Nobody can generate images of you until you approve');
    expect(modelStateText({ state: 'ready-for-review', retrainsLeft: 2 }).body).toContain('Nobody can generate images of you until you approve');
  });

  it("tells a failure's reason apart from the retrains being used up", () => {
    const failure = { code: 'too-few-photos' as const, message: TRAINING_FAILURE_TEXTS['too-few-photos'], at: '2026-11-21T09:30:00.000Z' };
    const failed = modelStateText({ state: 'failed', retrainsLeft: 3, failure });
    expect(failed).toMatchObject({ label: 'Training failed', tone: 'bad' });
    expect(failed.body).toContain(TRAINING_FAILURE_TEXTS['too-few-photos']);
    const used = modelStateText({ state: 'failed', retrainsLeft: 0 });
    expect(used.label).toBe('With our team');
    expect(used.body).toContain(`${MAX_TALENT_RETRAINS} new trainings`);
  });

  it('reads again only while a training runs', () => {
    expect(MODEL_STATES.filter(isRunning)).toEqual(['preparing', 'training', 'retraining']);
  });

  it("places the running training's step, and none once it settled", () => {
    expect(currentStep({ state: 'preparing', retrainsLeft: 3, latest: latest('preparing') })).toBe(0);
    expect(currentStep({ state: 'training', retrainsLeft: 3, latest: latest('sampling') })).toBe(2);
    expect(TRAINING_STEPS[2].label).toBe('Making sample images');
    expect(currentStep({ state: 'retraining', retrainsLeft: 2, latest: latest('training', 2) })).toBe(1);
    expect(currentStep({ state: 'ready-for-review', retrainsLeft: 3, latest: latest('ready-for-review') })).toBeUndefined();
    expect(currentStep({ state: 'training', retrainsLeft: 3 })).toBeUndefined();
  });

  it('gives each sample an alt text saying it is a preview, which one and its scene', () => {
    expect(sampleAlt({ prompt: 'A candid photo smiling outdoors', url: 'u' }, 1, 4)).toBe('Preview 2 of 4 made by your model: A candid photo smiling outdoors');
  });

  it('counts the retrains left, and says the team decides after the last', () => {
    expect(retrainsText(3)).toContain('3 more new trainings');
    expect(retrainsText(1)).toContain('1 more new training;');
    expect(retrainsText(0)).toContain('our team looks at your photos');
    expect(retrainsText(0)).not.toContain('more new training');
  });

  it('spaces the reads out from 5 seconds, doubling, to a minute at most', () => {
    expect([0, 1, 2, 3, 4, 10].map(pollDelayMs)).toEqual([5_000, 10_000, 20_000, 40_000, 60_000, 60_000]);
  });
});
