import { log } from '../../../shared/log';
import { available, serviceOrder, TOKEN, waitedTooLong, type CreationBucket } from '../../admission';
import { AdmissionTimedOut } from '../../errors';
import { generationOf } from '../../prediction';
import type { GenerationStore } from '../../store';

/** What resumes an admitted start's AwaitAdmission. */
export const ADMITTED = { admitted: true } as const;

export interface AdmissionDeps {
  store: Pick<GenerationStore, 'getForWorkflow' | 'joinAdmissionQueue' | 'admissionQueue' | 'admit' | 'refuseAdmission' | 'recordStep'>;
  /** SendTaskSuccess (`resumeTask`); false when the token is spent. */
  resume: (taskToken: string, output: typeof ADMITTED) => Promise<boolean>;
  now: () => Date;
  /** The stage's `replicateCreationsPerMinute`. */
  creationsPerMinute: number;
  /** How long a start may wait before it is refused (ADMISSION_MAX_WAIT_SECONDS). */
  maxWaitMs: number;
}

/** Starts admitted by one invocation at most: the rest wait for the next one (every arrival and every waiting start's re-arm serves the queue). */
const MAX_ADMISSIONS_PER_RUN = 25;
/** Reads of the queue after losing the bucket to another invocation, at most. */
const MAX_READS = 3;

/**
 * Step AwaitAdmission (`.waitForTaskToken`, re-armed every ADMISSION_TICK_SECONDS): puts the
 * start in the admission queue with its task token (or renews it there), then serves the queue.
 * A start admitted already (by another invocation, between two waits) resumes itself; one that has
 * waited longer than `maxWaitMs` leaves the queue and fails with AdmissionTimedOut (RecordFailure
 * releases its credits). Decision 065.
 */
export async function awaitAdmission(deps: AdmissionDeps, generationId: string, taskToken: string): Promise<{ waiting: boolean }> {
  let generation = await generationOf(deps.store, generationId);
  const at = deps.now();
  if (generation.admittedAt) {
    await deps.resume(taskToken, ADMITTED);
    return { waiting: false };
  }
  if (generation.admissionRefusedAt) throw new AdmissionTimedOut();
  if (generation.queuedAt && waitedTooLong(generation.queuedAt, at, deps.maxWaitMs)) {
    if (await deps.store.refuseAdmission(generation, generation.queuedAt, at.toISOString())) {
      log.warn('a start waited too long for admission', { generationId, queuedAt: generation.queuedAt });
      throw new AdmissionTimedOut();
    }
    await deps.resume(taskToken, ADMITTED);
    return { waiting: false };
  }
  let joined = await deps.store.joinAdmissionQueue(generation, generation.queuedAt ?? at.toISOString(), taskToken, at.toISOString());
  if (joined === 'moved') {
    // Another invocation of this step put it in the queue first: renew that entry.
    generation = await generationOf(deps.store, generationId);
    joined = generation.admittedAt ? 'admitted' : await deps.store.joinAdmissionQueue(generation, generation.queuedAt ?? at.toISOString(), taskToken, at.toISOString());
    if (joined === 'moved') throw new Error('The start joined the admission queue twice at once');
  }
  if (joined === 'admitted') {
    await deps.resume(taskToken, ADMITTED);
    return { waiting: false };
  }
  await serveAdmissionQueue(deps);
  return { waiting: true };
}

/**
 * Admits waiting starts while the creation bucket has room, in the queue's service order (in
 * turn across clients), each with one transaction that takes the creation, removes the start from
 * the queue and marks it admitted; then resumes its execution. Safe to run in many invocations
 * at once: the bucket's condition lets one admit at a time, the others read it again. Answers
 * how many it admitted.
 */
export async function serveAdmissionQueue(deps: AdmissionDeps): Promise<number> {
  let admitted = 0;
  for (let read = 0; read < MAX_READS; read++) {
    const { bucket, entries } = await deps.store.admissionQueue();
    let current: CreationBucket | undefined = bucket;
    let contended = false;
    for (const entry of serviceOrder(entries, bucket?.lastClient)) {
      const now = deps.now();
      const have = available(current, now.getTime(), deps.creationsPerMinute);
      if (have < TOKEN) return admitted;
      const after: CreationBucket = { millitokens: have - TOKEN, at: now.getTime(), lastClient: entry.accountId };
      const outcome = await deps.store.admit(entry, current, after, now.toISOString());
      if (outcome === 'contended') {
        contended = true;
        break;
      }
      if (outcome === 'gone') continue;
      current = after;
      admitted++;
      await resumeAdmitted(deps, entry.generationId, entry.queuedAt, now);
      if (admitted >= MAX_ADMISSIONS_PER_RUN) return admitted;
    }
    if (!contended) return admitted;
  }
  return admitted;
}

/** Resumes an admitted start's wait; a spent token is no matter: its next wait finds it admitted and resumes itself. */
async function resumeAdmitted(deps: AdmissionDeps, generationId: string, queuedAt: string, now: Date): Promise<void> {
  const generation = await deps.store.getForWorkflow(generationId);
  const waitedMs = now.getTime() - Date.parse(queuedAt);
  if (waitedMs >= 1000) {
    await deps.store.recordStep(generationId, {
      step: 'AwaitAdmission',
      at: now.toISOString(),
      detail: `admitted after ${Math.round(waitedMs / 1000)} s in the queue for Replicate's creation limit`,
      once: true,
    });
  }
  if (generation?.admissionToken) await deps.resume(generation.admissionToken, ADMITTED);
}
