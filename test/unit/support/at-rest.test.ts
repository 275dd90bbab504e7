import type { Meters } from '../../../infra/local/instruments';
import { atRest } from '../../support/at-rest';

const meters = (invocations: number, inFlight: number): Meters => ({
  dynamodb: { calls: 0, readUnits: 0, writeUnits: 0, conditionalFailures: 0, throttled: 0, byTable: {} },
  s3: { tier1: 0, tier2: 0, deletes: 0, bytesPut: 0 },
  ses: { messages: 0, recipients: 0, refused: 0 },
  lambda: { fn: { invocations } as Meters['lambda'][string] },
  stepFunctions: { executions: 0, transitions: 0, byExecution: {} },
  events: { published: 0, fromAws: 0 },
  invocationsInFlight: inFlight,
});

/** A twin whose meters read as the list says, one entry a read, the last one from then on. */
function twinReading(reads: Meters[]) {
  let n = 0;
  return { idle: async () => undefined, instruments: { meters: async () => reads[Math.min(n++, reads.length - 1)] } };
}

describe('atRest', () => {
  it('resolves once two reads in a row show the same activity and nothing in flight', async () => {
    const twin = twinReading([meters(1, 1), meters(2, 0), meters(3, 0), meters(3, 0)]);
    expect((await atRest(twin)).lambda.fn.invocations).toBe(3);
  });

  it('does not resolve while an invocation is in flight, however still the counts', async () => {
    await expect(atRest(twinReading([meters(1, 1)]), { timeoutMs: 300 })).rejects.toThrow(/timed out after 300 ms waiting for the twin at rest/);
  });

  it('does not resolve while the counts keep moving', async () => {
    let n = 0;
    const moving = { idle: async () => undefined, instruments: { meters: async () => meters(n++, 0) } };
    await expect(atRest(moving, { timeoutMs: 300 })).rejects.toThrow(/timed out after 300 ms waiting for the twin at rest/);
  });
});
