import * as z from 'zod';
import { Month } from '../../../../events/royalties';
import { assertMonthEnded, buildStatement, takenBackShares } from '../../arithmetic';
import type { StatementLine, TakenBackLine } from '../../../../events/royalties';
import { statementId } from '../../../../events/royalty-values';
import type { ROYALTY_PLANS } from '../../../../events/talent-values';
import { TALENT_ID_PATTERN } from '../../../../events/talent-values';
import type { Email } from '../../../shared/email';
import { log } from '../../../shared/log';
import type { RoyaltyStore, StatementRecord } from '../../store';
import { statementReadyEmail } from '../../emails';
import { accrualLinesOf, rebuildStatement, StatementMismatchError } from '../../statement-views';

type RoyaltyPlan = (typeof ROYALTY_PLANS)[number];

export const CloseTalentMonthInput = z.object({
  talentId: z.string().regex(TALENT_ID_PATTERN, { error: 'talentId must be a talent id such as maya-chen' }),
  month: Month,
});
type CloseTalentMonthInput = z.infer<typeof CloseTalentMonthInput>;

export interface CloseTalentMonthDeps {
  royalties: Pick<
    RoyaltyStore,
    | 'getStatement'
    | 'latestStatementBefore'
    | 'listStatements'
    | 'openAccruals'
    | 'claimedAccruals'
    | 'claim'
    | 'putStatement'
    | 'markNotified'
    | 'getAccrual'
    | 'openTakenBack'
    | 'claimTakenBack'
    | 'claimedTakenBack'
    | 'getTakenBack'
    | 'openGivenBack'
    | 'claimGivenBack'
    | 'claimedGivenBack'
  >;
  /** The talent's name, plan now (for accruals written before plans were recorded on them) and email when known. */
  talent: (talentId: string) => Promise<{ name: string; royaltyPlan: RoyaltyPlan; email: () => Promise<string | undefined> } | undefined>;
  send: (to: string, email: Email) => Promise<unknown>;
  siteUrl: string;
  /** The cap on the statement's promotional royalties (the stage's setting), recorded on the statement. */
  promotionalCapMicros: number;
  now: () => Date;
}

type CloseOutcome = 'closed' | 'unchanged' | 'nothing' | 'later-statement';

/**
 * Step CloseTalentMonth: the talent's statement of `month`, built once from the accruals it
 * claims (decision 029).
 * - A statement exists: it is rebuilt from its claimed accruals and compared; the same figures
 *   write nothing (a rerun), different ones fail the step (StatementMismatch). Never rewritten.
 * - A month that has not ended (UTC) is refused before anything is claimed (MonthNotEnded).
 * - Otherwise every open accrual up to `month` (from the previous statement's month: late ones
 *   of a closed month land here) is claimed for `month`, with those an interrupted run claimed
 *   already, and the statement is built from exactly the claimed ones, carrying in the previous
 *   statement's remainder, with the stage's promotional cap. Royalties taken back for refunds
 *   before the close runs are claimed too (the next statement closed after a refund takes it),
 *   each with the royalty its license's statement counted, and come off what the statement pays
 *   (never below zero). Royalties given back for licenses reinstated on appeal are claimed once
 *   their take-back is on a statement, each with what that take-back took from the talent, and
 *   are added to what it pays (docs/decisions/061). None of these: no statement (the remainder
 *   stays carried).
 * - The talent is emailed once that the statement is ready, when their address is known.
 */
export async function closeTalentMonth(deps: CloseTalentMonthDeps, input: CloseTalentMonthInput): Promise<{ talentId: string; outcome: CloseOutcome; royaltyCents?: number }> {
  const { talentId, month } = input;
  // Before anything is read or claimed: a month still running is never closed (MonthNotEnded).
  assertMonthEnded(month, deps.now());
  const talent = await deps.talent(talentId);
  const plan: RoyaltyPlan = talent?.royaltyPlan ?? 'standard-tiers';

  const existing = await deps.royalties.getStatement(talentId, month);
  if (existing) {
    await verify(deps, existing, plan);
    await notify(deps, existing, talent);
    return { talentId, outcome: 'unchanged', royaltyCents: existing.totals.royaltyCents };
  }

  // A month before the talent's latest statement is not closed after it: its carry would be lost.
  const latest = (await deps.royalties.listStatements(talentId))[0];
  if (latest && latest.month > month) {
    log.warn('a month before the latest statement is not closed', { talentId, month, latest: latest.month });
    return { talentId, outcome: 'later-statement' };
  }

  const previous = await deps.royalties.latestStatementBefore(talentId, month);
  const from = previous?.month ?? '';
  for (const accrual of await deps.royalties.openAccruals(talentId, month, plan, previous?.month)) {
    // The plan the statement uses is kept on the accrual (it is already there on every accrual DeliverImages wrote).
    await deps.royalties.claim(talentId, accrual, month, accrual.royaltyPlan);
  }
  // The statement is exactly what a rebuild reads: the accruals claimed for this month.
  const claimed = await deps.royalties.claimedAccruals(talentId, month, from, plan);
  const lines = accrualLinesOf(claimed);
  const carriedIn = previous?.totals.carriedOutMicros ?? 0;
  await claimTakenBack(deps, talentId, month, plan, buildStatement(lines, carriedIn, deps.promotionalCapMicros).lines);
  const takenBack = await deps.royalties.claimedTakenBack(talentId, month);
  const ownTakenBack = buildStatement(lines, carriedIn, deps.promotionalCapMicros, takenBack).totals.takenBack;
  await claimGivenBack(deps, talentId, month, { lines: takenBack, appliedMicros: ownTakenBack?.appliedMicros ?? 0 });
  const givenBack = await deps.royalties.claimedGivenBack(talentId, month);
  if (claimed.length === 0 && takenBack.length === 0 && givenBack.length === 0) return { talentId, outcome: 'nothing' };

  const { totals } = buildStatement(lines, carriedIn, deps.promotionalCapMicros, takenBack, givenBack);
  const statement: StatementRecord = {
    id: statementId(month, talentId),
    talentId,
    talentName: talent?.name ?? talentId,
    month,
    closedAt: deps.now().toISOString(),
    totals,
    fromMonth: lines.reduce((min, l) => (l.month < min ? l.month : min), month),
    audit: [],
  };
  if (!(await deps.royalties.putStatement(statement))) {
    // Another run closed it meanwhile: it must agree with what was claimed.
    const stored = (await deps.royalties.getStatement(talentId, month))!;
    await verify(deps, stored, plan);
    await notify(deps, stored, talent);
    return { talentId, outcome: 'unchanged', royaltyCents: stored.totals.royaltyCents };
  }
  await notify(deps, statement, talent);
  return { talentId, outcome: 'closed', royaltyCents: totals.royaltyCents };
}

/**
 * Claims for the statement of `month` the royalties taken back before now, each with the
 * royalty its license's statement counted: this month's (`ownLines`, the lines being closed) or
 * an earlier one's, rebuilt. One whose license is on no statement yet waits for a later close.
 */
async function claimTakenBack(deps: CloseTalentMonthDeps, talentId: string, month: string, plan: RoyaltyPlan, ownLines: readonly StatementLine[]): Promise<void> {
  const open = await deps.royalties.openTakenBack(talentId, deps.now().toISOString());
  const linesOf = new Map<string, readonly StatementLine[]>([[month, ownLines]]);
  for (const t of open) {
    const accrual = await deps.royalties.getAccrual(talentId, t.accrualMonth, t.licenseId, plan);
    const counted = accrual?.statementMonth;
    if (!counted || counted > month) {
      log.info('a royalty taken back waits for its license to be on a statement', { talentId, licenseId: t.licenseId, month });
      continue;
    }
    if (!linesOf.has(counted)) {
      const statement = await deps.royalties.getStatement(talentId, counted);
      if (!statement) throw new Error(`the statement ${counted} of ${talentId} that claimed license ${t.licenseId} is missing`);
      const [accruals, back, given] = await Promise.all([
        deps.royalties.claimedAccruals(talentId, counted, statement.fromMonth, plan),
        deps.royalties.claimedTakenBack(talentId, counted),
        deps.royalties.claimedGivenBack(talentId, counted),
      ]);
      linesOf.set(counted, rebuildStatement(statement, accruals, back, given).lines);
    }
    // A license that earned nothing (own account, a testing grant) is not a line: nothing to take back.
    const royaltyMicros = linesOf.get(counted)!.find((l) => l.licenseId === t.licenseId)?.royaltyMicros ?? 0;
    await deps.royalties.claimTakenBack(talentId, t.licenseId, month, { statementMonth: counted, royaltyMicros });
  }
}

/**
 * Claims for the statement of `month` the royalties given back before now whose take-back is on
 * this statement (`own`: its royalties taken back and what it applied of them) or an earlier one,
 * each with what its take-back took from the talent there (never what Humanly absorbed). One
 * whose take-back is on no statement yet waits for a later close, as its take-back does.
 */
async function claimGivenBack(deps: CloseTalentMonthDeps, talentId: string, month: string, own: { lines: readonly TakenBackLine[]; appliedMicros: number }): Promise<void> {
  const open = await deps.royalties.openGivenBack(talentId, deps.now().toISOString());
  const sharesOf = new Map<string, Map<string, number>>([[month, takenBackShares(own.lines, own.appliedMicros)]]);
  for (const g of open) {
    const taken = await deps.royalties.getTakenBack(talentId, g.licenseId);
    const on = taken?.claimedBy;
    if (!on || on > month) {
      log.info('a royalty given back waits for its take-back to be on a statement', { talentId, licenseId: g.licenseId, month });
      continue;
    }
    if (!sharesOf.has(on)) {
      const statement = await deps.royalties.getStatement(talentId, on);
      if (!statement) throw new Error(`the statement ${on} of ${talentId} that took back license ${g.licenseId} is missing`);
      sharesOf.set(on, takenBackShares(await deps.royalties.claimedTakenBack(talentId, on), statement.totals.takenBack?.appliedMicros ?? 0));
    }
    await deps.royalties.claimGivenBack(talentId, g.licenseId, month, { statementMonth: on, royaltyMicros: sharesOf.get(on)!.get(g.licenseId) ?? 0 });
  }
}

/** Rebuilds a closed statement from its claimed accruals and royalties taken back; StatementMismatch when the figures differ. */
async function verify(deps: CloseTalentMonthDeps, statement: StatementRecord, plan: RoyaltyPlan): Promise<void> {
  const [claimed, takenBack, givenBack] = await Promise.all([
    deps.royalties.claimedAccruals(statement.talentId, statement.month, statement.fromMonth, plan),
    deps.royalties.claimedTakenBack(statement.talentId, statement.month),
    deps.royalties.claimedGivenBack(statement.talentId, statement.month),
  ]);
  try {
    rebuildStatement(statement, claimed, takenBack, givenBack);
  } catch (err) {
    if (err instanceof StatementMismatchError) {
      log.error('a closed statement does not match its claimed accruals', err, { talentId: statement.talentId, month: statement.month, stored: err.stored.royaltyMicros, rebuilt: err.rebuilt.royaltyMicros });
    }
    throw err;
  }
}

/** Emails the talent that the statement is ready, once; skipped (without an address in logs) when none is known. */
async function notify(deps: CloseTalentMonthDeps, statement: StatementRecord, talent: Awaited<ReturnType<CloseTalentMonthDeps['talent']>>): Promise<void> {
  if (statement.notifiedAt) return;
  const to = await talent?.email();
  if (!to) {
    log.info('no email known for the talent: the statement is not emailed', { talentId: statement.talentId, month: statement.month });
    return;
  }
  await deps.send(
    to,
    statementReadyEmail({ talentName: statement.talentName, month: statement.month, royaltyCents: statement.totals.royaltyCents, licenses: statement.totals.licenses, siteUrl: deps.siteUrl }),
  );
  await deps.royalties.markNotified(statement.talentId, statement.month, deps.now().toISOString());
}
