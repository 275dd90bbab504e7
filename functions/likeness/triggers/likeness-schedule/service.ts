import type { LikenessControls } from '../../../../events/generations';
import type { LikenessRemovedV1 } from '../../../../events/likeness-events';
import { removalDoneEmail } from '../../emails/removal';
import type { Outbox, OutboxRun } from '../../../shared/email';
import { log } from '../../../shared/log';
import type { TalentStore } from '../../../catalog';
import { runContractNotices, type ContractNoticeDeps, type ContractNoticesResult } from '../../contract-notices';

export interface LikenessScheduleDeps {
  talent: Pick<TalentStore, 'listPendingRemovals' | 'completeRemoval'>;
  /** The talent's email (from the application they were accepted from); undefined when we have none. */
  emailOf(talentId: string, controls: LikenessControls): Promise<string | undefined>;
  /** Where the emails are written, with the change they tell of, and sent from (functions/shared/email.ts). */
  outbox: Pick<Outbox, 'entry' | 'deliver'>;
  siteUrl: string;
  /** The exclusive contracts' part of the run (functions/likeness/contract-notices.ts). */
  contracts: ContractNoticeDeps;
  /** Puts `Likeness.Removed` on the bus: the model and the face data are deleted by its consumers. */
  publishRemoved(event: LikenessRemovedV1): Promise<void>;
}

export interface LikenessScheduleResult extends ContractNoticesResult {
  removed: number;
  /** The outbox's sending at the end of the run. */
  emails: OutboxRun;
}

/**
 * The hourly likeness schedule (rule LikenessSchedule). A removal's effect on the library and on
 * generation is by time alone (events/likeness.ts); this run does the follow-up, once per talent:
 * publishes `Likeness.Removed` (its consumers delete the model's versions and training files, and
 * the photos and face data of the talent's application), then records `removedAt`, clears the
 * model config and the pause, ends the founding rate, and writes the "removal done" email to the
 * outbox in the same transaction. The event goes first: one that cannot be published leaves the
 * removal pending, and the next run publishes it again (its consumers are safe to repeat). Then
 * the exclusive contracts' notices and ends. Last, it sends every email waiting in the outbox, this run's and those an
 * earlier run or a route could not send (decision 041): each is retried every hour until it goes.
 * One talent's failure is logged and left for the next run; the others go on.
 */
export async function runLikenessSchedule(deps: LikenessScheduleDeps, now: Date): Promise<LikenessScheduleResult> {
  let removed = 0;
  for (const { talent, controls } of await deps.talent.listPendingRemovals()) {
    if (!controls.removal || Date.parse(controls.removal.effectiveAt) > now.getTime()) continue;
    try {
      const removedAt = now.toISOString();
      const to = await deps.emailOf(talent.id, controls);
      const mail = to ? deps.outbox.entry(`likeness-removed#${talent.id}#${removedAt}`, to, removalDoneEmail({ name: talent.name, removedAt, siteUrl: deps.siteUrl })) : undefined;
      await deps.publishRemoved({ version: 1, talentId: talent.id, ...(controls.applicationId ? { applicationId: controls.applicationId } : {}), removedAt });
      // Conditional: a concurrent run (or a retry) carries it out once, and only that one writes the email.
      if (!(await deps.talent.completeRemoval(talent.id, removedAt, mail ? [mail] : []))) continue;
      removed += 1;
      log.info('likeness removed', { talentId: talent.id });
      if (!mail) log.warn('no email address for the talent; removal done notice not sent', { talentId: talent.id });
    } catch (err) {
      log.error('likeness removal follow-up failed', err, { talentId: talent.id });
    }
  }
  const contracts = await runContractNotices(deps.contracts, now);
  const emails = await deps.outbox.deliver();
  return { removed, ...contracts, emails };
}
