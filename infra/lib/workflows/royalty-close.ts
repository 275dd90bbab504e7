// The RoyaltyClose state machine (docs/royalties.md "Monthly close", decision 029): on the 1st at
// 01:00 UTC it closes the month before for every talent of the catalog. PlanClose works out the
// month (or takes an operator's `{ month }`) and the talent ids; a Map closes each talent's month
// a few at a time. Task errors are retried with backoff; one that lasts fails the execution (the
// state machine's Failed alarm), and a rerun finishes what is left: closed statements are checked,
// never rewritten.
import { JsonPath, Map as MapState, DefinitionBody, Pass, Succeed } from 'aws-cdk-lib/aws-stepfunctions';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { LAMBDA_SERVICE_RETRY, TASK_RETRY, lambdaStep, noRetry, type RetryPolicy } from './steps';

interface RoyaltyCloseFunctions {
  planClose: IFunction;
  closeTalentMonth: IFunction;
}

/** Talent closed at once: the table and SES take them easily, and a catalog of hundreds closes in minutes. */
export const CLOSE_CONCURRENCY = 5;

/** Errors a retry cannot fix: bad input, a closed statement that no longer matches its accruals. */
export const CLOSE_FAILURES = ['StatementMismatch', 'ZodError'] as const;
const RETRY: RetryPolicy = [noRetry([...CLOSE_FAILURES]), LAMBDA_SERVICE_RETRY, TASK_RETRY];

/**
 * The definition and comment of the RoyaltyClose state machine, to spread into StateMachineProps.
 * Its input is the monthly rule's Scheduled Event (`time`) or `{ month }`; its output is the month,
 * the number of talent and each talent's outcome.
 */
export function royaltyCloseWorkflow(scope: Construct, id: string, fns: RoyaltyCloseFunctions): { definitionBody: DefinitionBody; comment: string } {
  const s = new Construct(scope, id);
  const plan = lambdaStep(s, 'PlanClose', {
    fn: fns.planClose,
    comment: 'The month to close (the one before the schedule\'s time, or the given one) and every talent id of the catalog',
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
  closeEach.itemProcessor(
    lambdaStep(s, 'CloseTalentMonth', {
      fn: fns.closeTalentMonth,
      comment: 'Claims the talent\'s open accruals for the month and writes the statement once (a closed one is checked, never rewritten), then emails the talent once',
      payload: { talentId: JsonPath.stringAt('$.talentId'), month: JsonPath.stringAt('$.month') },
      retry: RETRY,
      resultSelector: { outcome: JsonPath.stringAt('$.Payload.outcome') },
      resultPath: '$.closed',
    }),
  );
  const summary = new Pass(s, 'Summary', {
    comment: 'The month, the number of talent and each talent\'s outcome (closed, unchanged, nothing, later-statement)',
    parameters: { month: JsonPath.stringAt('$.plan.month'), talent: JsonPath.arrayLength(JsonPath.listAt('$.results')), results: JsonPath.listAt('$.results') },
  });
  plan.next(closeEach).next(summary).next(new Succeed(s, 'Closed'));
  return {
    definitionBody: DefinitionBody.fromChainable(plan),
    comment: 'RoyaltyClose: each talent\'s statement of the month before (or a given month), built once from the accruals it claims. docs/royalties.md',
  };
}
