import { FOUNDING_SPOTS } from '../../../../events/founding-values';
import { log } from '../../../shared/log';
import type { FoundingStore } from '../../store';

export interface SpotAllocation {
  founding: boolean;
  spotNumber?: number;
}

export interface AllocateDeps {
  store: FoundingStore;
  /** Founding spots in all (default FOUNDING_SPOTS). */
  total?: number;
}

/**
 * Gives the application a founding spot if one is left, exactly once, on the counter
 * `SPOTS/FOUNDING` (decision 008: one conditional update records the count and the holder),
 * then writes `SPOT#{id}` from it for readers that look an application's spot up by its own key.
 */
export async function allocateFoundingSpot(deps: AllocateDeps, applicationId: string): Promise<SpotAllocation> {
  const number = await deps.store.takeFoundingSpot(applicationId, deps.total ?? FOUNDING_SPOTS);
  if (number === undefined) return { founding: false };
  await deps.store.recordSpot(applicationId, number);
  return { founding: true, spotNumber: number };
}

/**
 * Workflow step AllocateSpot: founding applications compete for a founding spot; accepted
 * applications of the standard program, and founding ones once the spots are gone, become
 * standard talent. Records the outcome on the application.
 */
export async function allocateSpot(deps: AllocateDeps, applicationId: string): Promise<SpotAllocation> {
  const app = await deps.store.getApplication(applicationId);
  if (app.royaltyPlan !== undefined) {
    // Decided by an earlier run of this step.
    return app.founding ? { founding: true, spotNumber: app.spotNumber } : { founding: false };
  }
  const allocation = app.program === 'founding' ? await allocateFoundingSpot(deps, applicationId) : { founding: false };
  await deps.store.recordSpotDecision(applicationId, {
    founding: allocation.founding,
    spotNumber: allocation.spotNumber,
    royaltyPlan: allocation.founding ? 'founding-35' : 'standard-tiers',
  });
  await deps.store.addHistory(applicationId, 'spot allocated', {
    note: allocation.founding
      ? `founding spot ${allocation.spotNumber} of ${deps.total ?? FOUNDING_SPOTS}`
      : app.program === 'founding'
        ? 'no founding spot left: standard talent'
        : 'standard talent',
  });
  log.info('spot decided', { applicationId, founding: allocation.founding, spotNumber: allocation.spotNumber });
  return allocation;
}
