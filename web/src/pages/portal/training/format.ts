// The likeness model card's words and rhythm (docs/product.md#talent-portal): the state with what
// happens next, the steps of a running training, the samples' alt texts, the retrains left and
// how often the card reads the model while a training runs. Plain functions, tested under node.
import type { LikenessModelView, SampleView } from '../../../../../events/training';
import { MAX_TALENT_RETRAINS, type ModelState, type TrainingStatus } from '../../../../../events/training-values';

export type Tone = 'waiting' | 'action' | 'good' | 'bad' | 'neutral';

/** The model's state in words: a label for the chip, what it means and what happens next, and the chip's tone. */
export function modelStateText(view: LikenessModelView): { label: string; body: string; tone: Tone } {
  const keeps = view.live
    ? 'Clients keep generating with the version you approved until you approve a new one.'
    : 'Nobody can generate images of you until you approve a version.';
  switch (view.state) {
    case 'none':
      return { label: 'Set up by our team', body: 'Your likeness model was set up by our team: there is nothing for you to review.', tone: 'neutral' };
    case 'preparing':
      return {
        label: 'Preparing',
        body: 'We are preparing your accepted photos for training: cropping each one around your face. Next your model trains, which takes from a few minutes to half an hour. We email you when it is ready for your review.',
        tone: 'waiting',
      };
    case 'training':
      return {
        label: 'Training',
        body: 'Your model is learning your likeness from your accepted photos; this takes from a few minutes to half an hour. Then we make a few sample images and email you to review them. Nobody can generate images of you until you approve.',
        tone: 'waiting',
      };
    case 'ready-for-review':
      return {
        label: 'Ready for your review',
        body: `Look at the sample images below. If they look like you, approve to put your likeness live; if not, tell us what looks wrong and we train again. ${keeps}`,
        tone: 'action',
      };
    case 'live':
      return { label: 'Live', body: 'Clients can license images made with the version you approved, within the industries you allow.', tone: 'good' };
    case 'retraining':
      return { label: 'Retraining', body: `We are training a new version of your model. We email you when its samples are ready for your review. ${keeps}`, tone: 'waiting' };
    case 'failed':
      return {
        label: view.failure ? 'Training failed' : 'With our team',
        body: view.failure
          ? `${view.failure.message} Our team has been told and will contact you. Nobody can generate images of you.`
          : `You have asked for ${MAX_TALENT_RETRAINS} new trainings. Our team will look at your photos and contact you. Nobody can generate images of you.`,
        tone: 'bad',
      };
  }
}

/** The states in which a training runs: the card reads the model again until it settles. */
export const isRunning = (state: ModelState) => state === 'preparing' || state === 'training' || state === 'retraining';

/** The steps a training goes through, in order, as the talent reads them. */
export const TRAINING_STEPS = [
  { status: 'preparing', label: 'Preparing your photos' },
  { status: 'training', label: 'Training your model' },
  { status: 'sampling', label: 'Making sample images' },
  { status: 'ready-for-review', label: 'Ready for your review' },
] as const satisfies ReadonlyArray<{ status: TrainingStatus; label: string }>;

/** The running training's step (0-based) among TRAINING_STEPS, or undefined when no training runs. */
export function currentStep(view: LikenessModelView): number | undefined {
  if (!isRunning(view.state) || !view.latest) return undefined;
  const index = TRAINING_STEPS.findIndex((s) => s.status === view.latest?.status);
  return index < 0 ? undefined : index;
}

/** A sample's alt text: that it is a preview, which one, and the scene it was asked for. */
export const sampleAlt = (sample: SampleView, index: number, count: number) => `Preview ${index + 1} of ${count} made by your model: ${sample.prompt}`;

/** What "This isn't me" does next, in words. */
export function retrainsText(retrainsLeft: number): string {
  if (retrainsLeft <= 0) return `You have used your ${MAX_TALENT_RETRAINS} new trainings: if you say this isn't you, our team looks at your photos and decides what happens next.`;
  return `We train a new version from the same photos. You can ask for ${retrainsLeft === 1 ? '1 more new training' : `${retrainsLeft} more new trainings`}; after ${MAX_TALENT_RETRAINS}, our team decides.`;
}

/** The pause before the card reads a running training again: 5 s, doubling, at most a minute. */
export function pollDelayMs(attempt: number): number {
  return Math.min(5_000 * 2 ** Math.max(0, attempt), 60_000);
}
