import { Duration, NestedStack, type Stack, Validations } from 'aws-cdk-lib';
import { HttpStage } from 'aws-cdk-lib/aws-apigatewayv2';
import { Alarm, ComparisonOperator, type IMetric, MathExpression, Metric, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import type { Construct } from 'constructs';
import { FAILURE_METRICS, type FailureMetric } from '../../../events/metrics';
import type { EmailSending } from './email';
import { metricsNamespace } from './metrics';

export interface AlarmsProps {
  email: EmailSending;
  /** Who is told when an alarm fires (context `alarmEmail`). */
  alarmEmail?: string;
}

/**
 * Alarms on everything that can fail out of sight, all notifying one SNS topic:
 * - every Lambda function: errors or throttles (one alarm on their sum);
 * - every SQS queue (rule dead-letter queues, on-failure destinations): any message waiting;
 * - every state machine: failed, timed-out and aborted executions;
 * - the API: 5xx answers of its stage (whatever their cause: a function's error, its time-out, an
 *   integration that failed);
 * - failures the functions count themselves (events/metrics.ts, decision 041), which no AWS
 *   metric sees: an unexpected error a route answered 500, a Replicate webhook that could not be
 *   applied, a state machine execution that did not start, emails waiting in the outbox too long,
 *   misuse reports past their due time;
 * - our emails: bounces and complaints (the configuration set's metrics).
 *
 * Functions, queues and state machines are found by walking the stack when this construct is
 * created, so it is created last (after every other construct of the stack): a new function
 * or queue gets its alarms without anyone listing it.
 *
 * The alarms live in a nested stack of their own: with one or more per resource they would
 * otherwise take a fifth of CloudFormation's 500 resources per stack (decision 025). The names
 * they watch reach it as the nested stack's parameters.
 */
export class Alarms extends NestedStack {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];

  constructor(scope: Stack, id: string, props: AlarmsProps) {
    super(scope, id, { description: 'Alarms on every function, queue and state machine of the marketplace stack' });
    this.topic = new Topic(this, 'Topic', { displayName: 'Marketplace alarms', enforceSSL: true });
    Validations.of(this.topic).acknowledge({
      id: 'AwsSolutions-SNS2',
      reason: 'Alarm notifications carry alarm and metric names only, no personal data; CloudWatch cannot publish to a topic encrypted with the AWS-managed SNS key.',
    });
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));
    const action = new SnsAction(this.topic);
    const alarm = (name: string, description: string, metric: IMetric, threshold = 1) => {
      const a = new Alarm(this, name, {
        alarmDescription: description,
        metric,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      a.addAlarmAction(action);
      this.alarms.push(a);
    };

    const all = scope.node.findAll();
    const label = (c: Construct) => c.node.path.split('/').slice(1).join('').replace(/[^A-Za-z0-9]/g, '');
    const fiveMinutes = { period: Duration.minutes(5), statistic: 'Sum' };

    for (const fn of all.filter((c): c is LambdaFunction => c instanceof LambdaFunction)) {
      const errorsOrThrottles = new MathExpression({
        // Lambda publishes Throttles only when it throttles: a missing point counts as none.
        expression: 'FILL(errors, 0) + FILL(throttles, 0)',
        usingMetrics: { errors: fn.metricErrors(fiveMinutes), throttles: fn.metricThrottles(fiveMinutes) },
        period: Duration.minutes(5),
        label: 'Errors and throttles',
      });
      alarm(`${label(fn)}ErrorsOrThrottles`, `${fn.node.path}: the function threw, timed out or was throttled`, errorsOrThrottles);
    }
    for (const queue of all.filter((c): c is Queue => c instanceof Queue)) {
      alarm(
        `${label(queue)}Depth`,
        `${queue.node.path}: events that failed for good are waiting (redrive or inspect them)`,
        queue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(5), statistic: 'Maximum' }),
      );
    }
    for (const machine of all.filter((c): c is StateMachine => c instanceof StateMachine)) {
      alarm(`${label(machine)}Failed`, `${machine.node.path}: an execution failed`, machine.metricFailed(fiveMinutes));
      alarm(`${label(machine)}TimedOut`, `${machine.node.path}: an execution timed out`, machine.metricTimedOut(fiveMinutes));
      alarm(`${label(machine)}Aborted`, `${machine.node.path}: an execution was aborted`, machine.metricAborted(fiveMinutes));
    }
    // The API's own count of 5xx answers, per stage. Per route it would need the stage's detailed
    // metrics (seven custom metrics per route, billed each month, for about a hundred routes);
    // the functions count their unexpected errors per route instead (decision 041).
    for (const stage of all.filter((c): c is HttpStage => c instanceof HttpStage)) {
      alarm(
        `${label(stage)}ServerErrors`,
        `${stage.node.path}: the API answered 5xx 5 or more times in 5 minutes (see the failing routes' UnexpectedErrors by Route, and the functions' errors)`,
        stage.metricServerError(fiveMinutes),
        5,
      );
    }
    const namespace = metricsNamespace(scope);
    const failures = (name: FailureMetric, period = Duration.minutes(5), statistic = 'Sum') => new Metric({ namespace, metricName: name, period, statistic });
    alarm(
      'UnexpectedErrors',
      'An API route failed with an unexpected error and answered 500: its function log has "unhandled error"; the metric by Route names the route',
      failures(FAILURE_METRICS.unexpectedError),
    );
    alarm(
      'WebhookApplyFailures',
      'A signed Replicate webhook could not be applied (its generation waits on polling): the replicate-webhook function log names the generation',
      failures(FAILURE_METRICS.webhookApplyFailed),
    );
    alarm(
      'WorkflowStartFailures',
      'A state machine execution did not start (a generation failed at once, or an application retry was refused): the function log names the execution',
      failures(FAILURE_METRICS.workflowStartFailed),
    );
    // The outbox's sending run is the hourly likeness schedule: one count an hour, the largest kept.
    alarm(
      'EmailsOverdue',
      'Emails that follow a committed change have waited in the outbox for over an hour (is SES refusing them?); each hourly run retries them until they go',
      failures(FAILURE_METRICS.emailsOverdue, Duration.hours(1), 'Maximum'),
    );
    // The monthly close counts each talent's statement it could not close (docs/royalties.md "Monthly close").
    alarm(
      'StatementsNotClosed',
      'The monthly close could not close a talent\'s statement (a closed statement no longer matches its accruals, the month has not ended, or a failure lasted): the ReportNotClosed log names the talent, the month and the error; run the close again once fixed',
      failures(FAILURE_METRICS.statementNotClosed),
    );
    // The payouts wing counts each payout that failed (docs/payouts.md "When a payout fails").
    alarm(
      'PayoutsFailed',
      'A talent payout failed (a Stripe transfer was refused, a bank payout failed or a transfer was reversed): the console\'s payout run shows the statement and the reason; retry it there once fixed',
      failures(FAILURE_METRICS.payoutFailed),
    );
    // The training wing counts each likeness model training that failed (docs/training.md "Failures").
    alarm(
      'LikenessTrainingsFailed',
      'A talent\'s likeness model training failed (too few photos, the trainer, a time-out or a step): the console\'s trainings of the talent show the reason and the logs; retrain there once fixed',
      failures(FAILURE_METRICS.trainingFailed),
    );
    // The payments webhook counts each Stripe event about a client whose data was erased (docs/payments.md#erasure).
    alarm(
      'StripeEventsOfErasedAccounts',
      'Stripe sent an event about a client whose data was erased (a renewal, an invoice, a checkout, a refund or dispute): it was answered 200 and applied to nothing. The Payments table\'s ERASED_EVENT items (listKey ERASED_EVENTS) name the event and the Stripe object: check in Stripe whether money moved (refund a charge made after the erasure)',
      failures(FAILURE_METRICS.erasedAccountEvent),
    );
    // The reports wing's overdue check counts the cases past their due time every 15 minutes (docs/product.md#reports-and-takedown).
    alarm(
      'ReportsOverdue',
      'A misuse report is past its due time (48 hours for intimate images, 7 days otherwise) without a decision: the console queue shows it first, marked Overdue; the overdue-check function log names each late case',
      failures(FAILURE_METRICS.reportsOverdue, Duration.minutes(15), 'Maximum'),
    );
    alarm('EmailBounces', 'Our emails bounced (5 or more in 15 minutes): check the sender domain and the addresses we mail', props.email.metric('Bounce'), 5);
    alarm('EmailComplaints', 'A recipient marked our email as spam', props.email.metric('Complaint'));
  }
}
