import { createHash } from 'node:crypto';
import type { PhotoAnalysis } from './analyze';

/** How long a container keeps an analysis it made, and how many it keeps at most. */
export const RECENT_ANALYSES = { ttlMs: 10 * 60 * 1000, max: 256 } as const;

/**
 * `analyze` that does not analyse the same bytes twice within RECENT_ANALYSES.ttlMs in one
 * container: the face check's retries and a second run of the same check (its trigger delivered
 * twice) reuse what the first run found instead of running the model on every photo again.
 * Keyed by the photo's SHA-256, so only the same bytes hit; each caller gets its own copy. At
 * most RECENT_ANALYSES.max are kept, the oldest dropped first, and none outlives the time-out:
 * descriptors are biometric data and do not linger in a warm container.
 */
export function recentAnalyses(
  analyze: (bytes: Uint8Array) => Promise<PhotoAnalysis>,
  now: () => number = Date.now,
): (bytes: Uint8Array) => Promise<PhotoAnalysis> {
  const kept = new Map<string, { at: number; analysis: Promise<PhotoAnalysis> }>();
  return async (bytes) => {
    const at = now();
    for (const [key, entry] of kept) {
      if (at - entry.at < RECENT_ANALYSES.ttlMs) break;
      kept.delete(key);
    }
    const key = createHash('sha256').update(bytes).digest('hex');
    let entry = kept.get(key);
    if (!entry) {
      entry = { at, analysis: analyze(bytes) };
      kept.set(key, entry);
      // A failed analysis is not kept: the next call tries again.
      entry.analysis.catch(() => kept.delete(key));
      if (kept.size > RECENT_ANALYSES.max) kept.delete(kept.keys().next().value!);
    }
    return structuredClone(await entry.analysis);
  };
}
