import type { Meters } from '../../infra/local/instruments';
import { eventually } from './eventually';

/** What `atRest` reads of a twin (a TestTwin started with instruments has it). */
interface Watched {
  idle(): Promise<void>;
  instruments: { meters(): Promise<Meters> };
}

/** Everything the twin has done so far, in one comparable string. */
const activity = (m: Meters) =>
  JSON.stringify([
    Object.values(m.lambda).reduce((n, f) => n + f.invocations, 0),
    m.stepFunctions.executions,
    m.stepFunctions.transitions,
    m.events.published,
    m.ses.messages,
    m.dynamodb.calls,
    m.s3.tier1 + m.s3.tier2,
  ]);

/**
 * Waits until an instrumented twin is at rest: no event delivery under way, no function
 * invocation in flight, and the meters the same on two reads in a row (a state machine between
 * two states shows as neither). This is how a test shows that something did NOT happen (a
 * replayed event changed nothing, a slow step mailed once): it waits for the twin to have done
 * all it was going to do, not for a length of time.
 */
export async function atRest(twin: Watched, { timeoutMs = 60_000 }: { timeoutMs?: number } = {}): Promise<Meters> {
  let before = '';
  return eventually(
    async () => {
      await twin.idle();
      const meters = await twin.instruments.meters();
      const now = activity(meters);
      const still = now === before && meters.invocationsInFlight === 0;
      before = now;
      return still && meters;
    },
    { timeoutMs, what: 'the twin at rest (no delivery or invocation under way, the meters still)' },
  );
}
