/**
 * What one likeness model training costs (docs/cost.md#cost-per-training): Replicate bills the
 * trainer's time on its hardware by the second (`metrics.predict_time` times the hardware's
 * price, events/training-values.ts, as the workflow records each training's cost), then the
 * new version makes its sample images, each priced as a generated image (the stage's
 * `generationCostMicros`). The AWS side (about a dozen state transitions, ten Lambda
 * invocations, a zip and four images in S3, one email) is under a cent and counted apart.
 *
 *   npx tsx test/bench/cost/training.ts   (npm run bench:cost prints it after the unit economics)
 *
 * Every amount is an integer number of micro-dollars.
 */
import { DEFAULT_TRAINING_HARDWARE, HARDWARE_MICROS_PER_SECOND, MAX_TALENT_RETRAINS, SAMPLE_PROMPTS, trainingCostMicros } from '../../../events/training-values';
import { DEFAULT_GENERATION_COST_MICROS } from '../../../infra/lib/platform/stage-config';

/**
 * Training times to price: 2 to 30 minutes for a FLUX LoRA (Replicate's published training times); the $1.50-2 a
 * training reported for 1,000 steps is 16 to 22 minutes at the H100's price.
 */
const TRAINING_MINUTES = [2, 10, 20, 30] as const;

/** The Replicate side of one training: the trainer's time and the samples. */
export function trainingCost(minutes: number, hardware: string = DEFAULT_TRAINING_HARDWARE, generationMicros: number = DEFAULT_GENERATION_COST_MICROS) {
  const trainer = trainingCostMicros(minutes * 60, hardware);
  if (trainer === undefined) throw new Error(`no price for hardware ${hardware}`);
  const samples = SAMPLE_PROMPTS.length * generationMicros;
  return { trainerMicros: trainer, samplesMicros: samples, totalMicros: trainer + samples };
}

const usd = (micros: number) => `$${(micros / 1e6).toFixed(2)}`;

/** The table bench:cost prints (and docs/cost.md shows). */
export function trainingCostTable(hardware: string = DEFAULT_TRAINING_HARDWARE, generationMicros: number = DEFAULT_GENERATION_COST_MICROS): string {
  const perSecond = HARDWARE_MICROS_PER_SECOND[hardware];
  const lines = [
    `Cost per likeness model training (${hardware} at $${(perSecond / 1e6).toFixed(6)}/s; ${SAMPLE_PROMPTS.length} samples at $${(generationMicros / 1e6).toFixed(3)}; a talent's worst case is ${1 + MAX_TALENT_RETRAINS} trainings):`,
    `  ${'training time'.padEnd(14)} ${'trainer'.padStart(8)} ${'samples'.padStart(8)} ${'one training'.padStart(13)} ${`${1 + MAX_TALENT_RETRAINS} trainings`.padStart(12)}`,
  ];
  for (const minutes of TRAINING_MINUTES) {
    const c = trainingCost(minutes, hardware, generationMicros);
    lines.push(`  ${`${minutes} min`.padEnd(14)} ${usd(c.trainerMicros).padStart(8)} ${usd(c.samplesMicros).padStart(8)} ${usd(c.totalMicros).padStart(13)} ${usd(c.totalMicros * (1 + MAX_TALENT_RETRAINS)).padStart(12)}`);
  }
  lines.push('  (AWS: under $0.01 a training; the console shows each training\'s own cost from Replicate\'s metrics)');
  return lines.join('\n');
}

if (process.argv[1]?.endsWith('training.ts')) console.log(trainingCostTable());
