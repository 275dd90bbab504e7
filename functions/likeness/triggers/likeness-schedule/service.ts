import type { LikenessControls } from '../../../../events/generations';
import { removalDoneEmail } from '../../emails/removal';
import type { Email } from '../../../shared/email';
import { log } from '../../../shared/log';
import type { TalentStore } from '../../../catalog';
import { runContractNotices, type ContractNoticeDeps, type ContractNoticesResult } from '../../contract-notices';

export interface LikenessScheduleDeps {
  talent: Pick<TalentStore, 'listPendingRemovals' | 'completeRemoval'>;
  /** The talent's email (from the application they were accepted from); undefined when we have none. */
  emailOf(talentId: string, controls: LikenessControls): Promise<string | undefined>;
  send(to: string, email: Email): Promise<unknown>;
  siteUrl: string;
  /** The exclusive contracts' part of the run (functions/likeness/contract-notices.ts). */
  contracts: ContractNoticeDeps;
}

export interface LikenessScheduleResult extends ContractNoticesResult {
  removed: number;
}

/**
 * The hourly likeness schedule (rule LikenessSchedule). A removal's effect on the library and on
 * generation is by time alone (events/likeness.ts); this run does the follow-up, once per talent:
 * records `removedAt`, clears the model config and the pause, ends the founding rate, and emails
 * "removal done". Then the exclusive contracts' notices and ends. One talent's failure is logged
 * and left for the next run; the others go on.
 */
export async function runLikenessSchedule(deps: LikenessScheduleDeps, now: Date): Promise<LikenessScheduleResult> {
  let removed = 0;
  for (const { talent, controls } of await deps.talent.listPendingRemovals()) {
    if (!controls.removal || Date.parse(controls.removal.effectiveAt) > now.getTime()) continue;
    try {
      // Conditional: a concurrent run (or a retry) carries it out once, and only that one emails.
      if (!(await deps.talent.completeRemoval(talent.id, now.toISOString()))) continue;
      removed += 1;
      log.info('likeness removed', { talentId: talent.id });
      const to = await deps.emailOf(talent.id, controls);
      if (!to) {
        log.warn('no email address for the talent; removal done notice not sent', { talentId: talent.id });
        continue;
      }
      await deps.send(to, removalDoneEmail({ name: talent.name, removedAt: now.toISOString(), siteUrl: deps.siteUrl }));
    } catch (err) {
      log.error('likeness removal follow-up failed', err, { talentId: talent.id });
    }
  }
  const contracts = await runContractNotices(deps.contracts, now);
  return { removed, ...contracts };
}
