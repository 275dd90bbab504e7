import { log } from '../../../shared/log';
import { available, bucketShape, serviceOrder, TOKEN, waitedTooLong, type CreationBucket, type QueueEntry } from '../../admission';
import { AdmissionTimedOut } from '../../errors';
import { generationOf } from '../../prediction';
import type { GenerationStore } from '../../store';

export interface AdmissionDeps {
  store: Pick<GenerationStore, 'getForWorkflow' | 'joinAdmissionQueue' | 'admissionQueue' | 'admit' | 'refuseAdmission' | 'recordStep'>;
  now: () => Date;
  /** The stage's `replicateCreationsPerMinute`. */
  creationsPerMinute: number;
  /** How long a start may wait before it is refused (ADMISSION_MAX_WAIT_SECONDS). */
  maxWaitMs: number;
  /** The creations a start will make at Replicate: 2 when CheckPolicy will ask the industry classifier (the talent excludes industries), else 1. */
  creationsOf: (generation: { talentId: string }) => Promise<number>;
}

/** Starts admitted by one invocation at most: the rest wait for the next one (every arrival and every waiting start's look serves the queue). */
const MAX_ADMISSIONS_PER_RUN = 25;
/** Reads of the queue after losing the bucket to another invocation, at most. */
const MAX_READS = 3;

/**
 * Step AwaitAdmission (run again every ADMISSION_POLL_SECONDS until it answers admitted): puts
 * the start in the admission queue the first time, serves the queue, and answers whether the
 * start is admitted now. A start that has waited longer than `maxWaitMs` leaves the queue and
 * fails with AdmissionTimedOut (RecordFailure releases its credits). Decision 065.
 */
export async function awaitAdmission(deps: AdmissionDeps, generationId: string): Promise<{ admitted: boolean }> {
  const generation = await generationOf(deps.store, generationId);
  const at = deps.now();
  if (generation.admittedAt) return { admitted: true };
  if (generation.admissionRefusedAt) throw new AdmissionTimedOut();
  if (generation.queuedAt && waitedTooLong(generation.queuedAt, at, deps.maxWaitMs)) {
    if (!(await deps.store.refuseAdmission(generation, generation.queuedAt, at.toISOString()))) return { admitted: true };
    log.warn('a start waited too long for admission', { generationId, queuedAt: generation.queuedAt });
    throw new AdmissionTimedOut();
  }
  // 'moved': another invocation of this step put it in the queue first, which is as good.
  // In the queue by the time it was started, so a client's own starts keep their order.
  if (!generation.queuedAt && (await deps.store.joinAdmissionQueue(generation, generation.createdAt, await deps.creationsOf(generation))) === 'admitted') return { admitted: true };
  const admitted = await serveAdmissionQueue(deps);
  if (admitted.includes(generationId)) return { admitted: true };
  return { admitted: Boolean((await generationOf(deps.store, generationId)).admittedAt) };
}

/**
 * Admits waiting starts while the creation bucket has room, in the queue's service order (in
 * turn across clients), each with one transaction that takes the creation, removes the start from
 * the queue and marks it admitted (its execution sees it at its next look). Safe to run in many
 * invocations at once: the bucket's condition lets one admit at a time, the others read it
 * again. Answers the generations it admitted.
 */
export async function serveAdmissionQueue(deps: AdmissionDeps): Promise<string[]> {
  const admitted: string[] = [];
  for (let read = 0; read < MAX_READS; read++) {
    const { bucket, entries } = await deps.store.admissionQueue();
    let current: CreationBucket | undefined = bucket;
    let contended = false;
    for (const entry of serviceOrder(entries, bucket?.lastClient)) {
      const now = deps.now();
      const have = available(current, now.getTime(), deps.creationsPerMinute);
      // The next start in turn waits for all its creations: none after it goes first.
      const cost = Math.min(entry.cost, bucketShape(deps.creationsPerMinute).capacity) * TOKEN;
      if (have < cost) return admitted;
      const after: CreationBucket = { millitokens: have - cost, at: now.getTime(), lastClient: entry.accountId };
      const outcome = await deps.store.admit(entry, current, after, now.toISOString());
      if (outcome === 'contended') {
        contended = true;
        break;
      }
      if (outcome === 'gone') continue;
      current = after;
      admitted.push(entry.generationId);
      await recordWait(deps, entry, now);
      if (admitted.length >= MAX_ADMISSIONS_PER_RUN) return admitted;
    }
    if (!contended) return admitted;
  }
  return admitted;
}

/** Records on an admitted start that waited a second or more how long it waited (the console shows the steps). */
async function recordWait(deps: AdmissionDeps, entry: QueueEntry, now: Date): Promise<void> {
  const waitedMs = now.getTime() - Date.parse(entry.queuedAt);
  if (waitedMs < 1000) return;
  await deps.store.recordStep(entry.generationId, {
    step: 'AwaitAdmission',
    at: now.toISOString(),
    detail: `admitted after ${Math.round(waitedMs / 1000)} s in the queue for Replicate's creation limit`,
    once: true,
  });
}
