import * as fs from 'node:fs';
import { startTwin, type TwinOptions } from '../../infra/local/twin';
import { ownTwin, SHARED_TWIN_ENV, sharedTwin, type SharedTwinOptions, type TestTwin, type TwinHandoff } from '../support/twin';

/** A bench's twin, and how to let it go: stopped when the bench started it, left running when shared. */
export interface BenchTwin extends TestTwin {
  /** True on the twin test/bench/quick.test.ts shares between the benches' quick runs. */
  shared: boolean;
  stop(): Promise<void>;
}

/** The options the quick runs' shared twin is started with: what every bench's quick run needs. */
export const QUICK_BENCH_TWIN: SharedTwinOptions = {
  instrument: true,
  // bench:generation's quick scale of the state machines' waits.
  waitScale: 0.1,
  // bench:waitlist signs up more people than the default capacity.
  context: { waitlistCapacity: 10_000_000 },
};

/** Whether a shared twin started with `shared` serves a bench that asks for `wanted`. */
function suits(shared: SharedTwinOptions, wanted: SharedTwinOptions): boolean {
  if (wanted.instrument && !shared.instrument) return false;
  if ((wanted.waitScale ?? 0.001) !== (shared.waitScale ?? 0.001)) return false;
  return Object.entries(wanted.context ?? {}).every(([key, value]) => JSON.stringify(shared.context?.[key]) === JSON.stringify(value));
}

/**
 * The twin a bench runs on. Under test/bench/quick.test.ts the benches' quick runs share one
 * twin (started once, handed over through SHARED_TWIN_ENV), each bench with data of its own
 * (its own addresses, accounts and networks); run alone (`npm run bench:x`), or when the shared
 * twin was started with other options, a bench starts a twin of its own, stopped by `stop()`.
 */
export async function benchTwin(options: SharedTwinOptions & Pick<TwinOptions, 'log'> = {}): Promise<BenchTwin> {
  const { log, ...wanted } = options;
  const handoff = process.env[SHARED_TWIN_ENV];
  if (handoff && suits((JSON.parse(fs.readFileSync(handoff, 'utf8')) as TwinHandoff).options, wanted)) {
    return Object.assign(sharedTwin(handoff), { shared: true, stop: async () => undefined });
  }
  const own = await startTwin({ fast: true, ...wanted, log });
  return Object.assign(ownTwin(own), { shared: false, stop: () => own.stop() });
}
