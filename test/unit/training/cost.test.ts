// The cost of a training (events/training-values.ts, test/bench/cost/training.ts): Replicate's
// hardware price by the started second, and the samples priced as generated images.
import { HARDWARE_MICROS_PER_SECOND, trainingCostMicros } from '../../../events/training-values';
import { trainingCost, trainingCostTable } from '../../bench/cost/training';

describe('the cost of a training', () => {
  it('is the trainer\'s time, rounded up to the second, at its hardware\'s price; unknown hardware or a bad time has none', () => {
    expect(trainingCostMicros(121.4, 'gpu-h100')).toBe(122 * 1525);
    expect(trainingCostMicros(0, 'gpu-h100')).toBe(0);
    expect(trainingCostMicros(60, 'gpu-a100-large')).toBe(60 * HARDWARE_MICROS_PER_SECOND['gpu-a100-large']);
    expect(trainingCostMicros(60, 'gpu-h200')).toBeUndefined();
    expect(trainingCostMicros(Number.NaN, 'gpu-h100')).toBeUndefined();
    expect(trainingCostMicros(-1, 'gpu-h100')).toBeUndefined();
  });

  it('adds the four samples at the image\'s price; 20 minutes on an H100 is about $1.93', () => {
    expect(trainingCost(20)).toEqual({ trainerMicros: 1_830_000, samplesMicros: 100_000, totalMicros: 1_930_000 });
    expect(trainingCost(2, 'gpu-h100', 0).totalMicros).toBe(183_000);
    expect(() => trainingCost(2, 'gpu-h200')).toThrow('no price for hardware gpu-h200');
    expect(trainingCostTable()).toMatch(/20 min\s+\$1\.83\s+\$0\.10\s+\$1\.93\s+\$7\.72/);
  });
});
