import { Duration, Stack, Validations } from 'aws-cdk-lib';
import { Rule, type EventPattern, type IEventBus, type IRuleTarget, type Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction as LambdaTarget } from 'aws-cdk-lib/aws-events-targets';
import { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { SqsDestination } from 'aws-cdk-lib/aws-lambda-destinations';
import { Queue, QueueEncryption, type IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { EVENT_SOURCE } from '../../../events/product';

/** How every rule target of ours is retried before its event goes to the dead-letter queue. */
interface TargetRetry {
  retryAttempts: number;
  maxEventAge: Duration;
  deadLetterQueue: IQueue;
}

export interface RetriedRuleProps {
  /** The bus whose events `eventPattern` matches; a schedule needs none. */
  eventBus?: IEventBus;
  description: string;
  /** What starts the target: matching events, or a schedule. */
  eventPattern?: EventPattern;
  schedule?: Schedule;
  /** Construct id of the dead-letter queue. */
  deadLetterId: string;
  /** Whose dead letters the queue holds, e.g. 'the welcome-email rule target'. */
  deadLetterOf: string;
  /** The target, given the retry policy and its dead-letter queue. */
  target: (retry: TargetRetry) => IRuleTarget;
}

/** An encrypted, TLS-only queue kept 14 days, holding what failed for good. */
function failureQueue(scope: Construct, id: string, of: string): Queue {
  const queue = new Queue(scope, id, {
    enforceSSL: true,
    encryption: QueueEncryption.SQS_MANAGED,
    retentionPeriod: Duration.days(14),
  });
  Validations.of(queue).acknowledge({
    id: 'AwsSolutions-SQS3',
    reason: `This queue is the dead-letter queue of ${of}; it needs none of its own.`,
  });
  return queue;
}

/**
 * A rule (matching events, or on a schedule) whose target is retried for up to six hours (eight
 * attempts); an event that still fails to be delivered lands in an encrypted dead-letter queue
 * kept 14 days.
 *
 * EventBridge invokes a Lambda target asynchronously: delivery succeeds as soon as Lambda
 * accepts the event, and an error thrown inside the function is retried twice by Lambda and
 * then dropped. So a Lambda target also gets an on-failure destination, a queue of the same
 * kind named `<deadLetterId>Failed`, that receives the event and the error after those retries.
 */
export function retriedRule(scope: Construct, id: string, props: RetriedRuleProps): Rule {
  const deadLetterQueue = failureQueue(scope, props.deadLetterId, props.deadLetterOf);
  const inner = props.target({ retryAttempts: 8, maxEventAge: Duration.hours(6), deadLetterQueue });
  const target: IRuleTarget = {
    bind: (rule, targetId) => {
      const config = inner.bind(rule, targetId);
      const fn = lambdaWithArn(scope, config.arn);
      if (fn && !fn.node.tryFindChild('EventInvokeConfig')) {
        const failed = failureQueue(scope, `${props.deadLetterId}Failed`, `the function behind ${props.deadLetterOf} (on-failure destination)`);
        fn.configureAsyncInvoke({ onFailure: new SqsDestination(failed), retryAttempts: 2, maxEventAge: Duration.hours(6) });
      }
      return config;
    },
  };
  return new Rule(scope, id, {
    eventBus: props.eventBus,
    description: props.description,
    eventPattern: props.eventPattern,
    schedule: props.schedule,
    targets: [target],
  });
}

/** The stack's Lambda function a rule target's ARN names, if the target is one. */
function lambdaWithArn(scope: Construct, arn: string): LambdaFunction | undefined {
  return Stack.of(scope)
    .node.findAll()
    .find((c): c is LambdaFunction => c instanceof LambdaFunction && c.functionArn === arn);
}

/**
 * Our own events of one detail type, delivered to a function by a retriedRule whose dead letters
 * go to `<function id>DeadLetters`. `consequence` names what the event leads to, for the rule's
 * description (`Waitlist.SignedUp -> welcome email`).
 */
export function consumeEvents(scope: Construct, id: string, props: { bus: IEventBus; detailType: string; consumer: LambdaFunction; consequence: string }): Rule {
  return retriedRule(scope, id, {
    eventBus: props.bus,
    description: `${props.detailType} -> ${props.consequence}`,
    eventPattern: { source: [EVENT_SOURCE], detailType: [props.detailType] },
    deadLetterId: `${props.consumer.node.id}DeadLetters`,
    deadLetterOf: `the ${props.detailType} rule target`,
    target: (retry) => new LambdaTarget(props.consumer, retry),
  });
}
