// The RoyaltyClose state machine (docs/royalties.md "Monthly close", decision 029): on the 1st at
// 01:00 UTC it closes the month before for every talent of the catalog. PlanClose works out the
// month (or takes an operator's `{ month }`) and the talent ids; a Map closes each talent's month
// a few at a time. Task errors are retried with backoff; a talent whose close fails for good is
// counted (the StatementsNotClosed alarm) while the others close, and then the execution fails (the
// state machine's Failed alarm); a rerun finishes what is left: closed statements are checked,
// never rewritten.
import { Choice, Condition, DefinitionBody, Fail, JsonPath, Map as MapState, Pass, Succeed } from 'aws-cdk-lib/aws-stepfunctions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { NOT_CLOSED_OUTCOME } from '../../../events/royalty-values';
import { LAMBDA_SERVICE_RETRY, TASK_RETRY, lambdaStep, noRetry, type RetryPolicy } from './steps';

interface RoyaltyCloseFunctions {
  planClose: IFunction;
  closeTalentMonth: IFunction;
  /** Counts a statement the close could not close (the StatementsNotClosed metric and its alarm). */
  reportNotClosed: IFunction;
  /** Publishes Royalties.MonthClosed for the month (the payout run follows it). */
  announceClose: IFunction;
}

/** Talent closed at once: the table and SES take them easily, and a catalog of hundreds closes in minutes. */
export const CLOSE_CONCURRENCY = 5;

/** Errors a retry cannot fix: bad input, a month that has not ended, a closed statement that no longer matches its accruals. */
export const CLOSE_FAILURES = ['StatementMismatch', 'MonthNotEnded', 'ZodError'] as const;
const RETRY: RetryPolicy = [noRetry([...CLOSE_FAILURES]), LAMBDA_SERVICE_RETRY, TASK_RETRY];

/** The execution's error when any statement could not be closed. */
export const NOT_CLOSED_ERROR = 'StatementsNotClosed';

/**
 * The definition and comment of the RoyaltyClose state machine, to spread into StateMachineProps.
 * Its input is the monthly rule's Scheduled Event (`time`) or `{ month }`; its output is the month,
 * the number of talent and each talent's outcome.
 *
 * A talent whose close fails for good (after its retries, or at once for StatementMismatch and
 * MonthNotEnded) is caught: ReportNotClosed counts it (metric StatementsNotClosed, which alarms)
 * and the other talent are still closed. The execution then fails with StatementsNotClosed, so
 * its Failed alarm fires too; a rerun finishes what is left.
 */
export function royaltyCloseWorkflow(scope: Construct, id: string, fns: RoyaltyCloseFunctions): { definitionBody: DefinitionBody; comment: string } {
  const s = new Construct(scope, id);
  const plan = lambdaStep(s, 'PlanClose', {
    fn: fns.planClose,
    comment: 'The month to close (the one before the schedule\'s time, or the given one; refused unless it has ended) and every talent id of the catalog',
    payload: { input: JsonPath.entirePayload },
    retry: RETRY,
    resultSelector: { month: JsonPath.stringAt('$.Payload.month'), talentIds: JsonPath.listAt('$.Payload.talentIds') },
    resultPath: '$.plan',
  });
  const closeEach = new MapState(s, 'CloseEachTalent', {
    comment: `Closes each talent's month, ${CLOSE_CONCURRENCY} at a time`,
    itemsPath: '$.plan.talentIds',
    itemSelector: { talentId: JsonPath.stringAt('$$.Map.Item.Value'), month: JsonPath.stringAt('$.plan.month') },
    maxConcurrency: CLOSE_CONCURRENCY,
    resultPath: '$.results',
  });
  const close = lambdaStep(s, 'CloseTalentMonth', {
    fn: fns.closeTalentMonth,
    comment: 'Claims the talent\'s open accruals for the month and writes the statement once (a closed one is checked, never rewritten), then emails the talent once',
    payload: { talentId: JsonPath.stringAt('$.talentId'), month: JsonPath.stringAt('$.month') },
    retry: RETRY,
    resultSelector: { outcome: JsonPath.stringAt('$.Payload.outcome') },
    resultPath: '$.closed',
  });
  const report = lambdaStep(s, 'ReportNotClosed', {
    fn: fns.reportNotClosed,
    comment: 'Counts the statement that could not be closed (metric StatementsNotClosed) with the error\'s name',
    payload: { talentId: JsonPath.stringAt('$.talentId'), month: JsonPath.stringAt('$.month'), error: JsonPath.stringAt('$.failure.Error') },
    retry: [LAMBDA_SERVICE_RETRY, TASK_RETRY],
    resultSelector: { outcome: JsonPath.stringAt('$.Payload.outcome'), error: JsonPath.stringAt('$.Payload.error') },
    resultPath: '$.closed',
  });
  close.addCatch(report, { errors: ['States.ALL'], resultPath: '$.failure' });
  closeEach.itemProcessor(close);
  // The summary: the month, the number of talent, each talent's outcome and whether any statement
  // was not closed. (A path into the results' outcomes needs at least one result on the twin's
  // runner, where AWS would answer an empty list: with no talent, nothing can be unclosed.)
  const summary = (name: string, notClosed: boolean | string) =>
    new Pass(s, name, {
      comment: `The month, the number of talent, each talent's outcome (closed, unchanged, nothing, later-statement, ${NOT_CLOSED_OUTCOME}) and whether any was ${NOT_CLOSED_OUTCOME}`,
      parameters: { month: JsonPath.stringAt('$.plan.month'), talent: JsonPath.arrayLength(JsonPath.listAt('$.results')), results: JsonPath.listAt('$.results'), notClosed },
    });
  const closed = new Succeed(s, 'Closed');
  // Announced before the failure Choice, so the payout run pays what closed even when a talent's
  // statement did not (the rerun of the close announces again; the payout run pays nothing twice).
  const announce = (name: string) =>
    lambdaStep(s, name, {
      fn: fns.announceClose,
      comment: 'Publishes Royalties.MonthClosed for the month: the payouts wing pays its statements',
      payload: { month: JsonPath.stringAt('$.month') },
      retry: [LAMBDA_SERVICE_RETRY, TASK_RETRY],
    });
  const anyNotClosed = new Choice(s, 'AnyNotClosed', { comment: 'Fails the execution when a talent\'s statement could not be closed' })
    .when(
      Condition.booleanEquals('$.notClosed', true),
      new Fail(s, 'NotClosed', {
        error: NOT_CLOSED_ERROR,
        cause: 'A talent\'s statement could not be closed: the StatementsNotClosed metric names the talent, the month and the error, and the Summary state\'s output each talent\'s outcome. Run the close again once the cause is fixed.',
      }),
    )
    .otherwise(closed);
  const anyTalent = new Choice(s, 'AnyTalent')
    .when(Condition.isPresent('$.results[0]'), summary('Summary', JsonPath.arrayContains(JsonPath.listAt('$.results[*].closed.outcome'), NOT_CLOSED_OUTCOME)).next(announce('AnnounceClose')).next(anyNotClosed))
    .otherwise(summary('NoTalent', false).next(announce('AnnounceNoTalent')).next(closed));
  plan.next(closeEach).next(anyTalent);
  return {
    definitionBody: DefinitionBody.fromChainable(plan),
    comment: 'RoyaltyClose: each talent\'s statement of the month before (or a given month), built once from the accruals it claims. docs/royalties.md',
  };
}
