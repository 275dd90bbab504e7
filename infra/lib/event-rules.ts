import { Duration, Validations } from 'aws-cdk-lib';
import { Rule, type EventPattern, type IEventBus, type IRuleTarget } from 'aws-cdk-lib/aws-events';
import { Queue, QueueEncryption, type IQueue } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

/** How every rule target of ours is retried before its event goes to the dead-letter queue. */
interface TargetRetry {
  retryAttempts: number;
  maxEventAge: Duration;
  deadLetterQueue: IQueue;
}

export interface RetriedRuleProps {
  eventBus: IEventBus;
  description: string;
  eventPattern: EventPattern;
  /** Construct id of the dead-letter queue. */
  deadLetterId: string;
  /** Whose dead letters the queue holds, e.g. 'the welcome-email rule target'. */
  deadLetterOf: string;
  /** The target, given the retry policy and its dead-letter queue. */
  target: (retry: TargetRetry) => IRuleTarget;
}

/**
 * A rule whose target is retried for up to six hours (eight attempts); an event that still
 * fails lands in an encrypted dead-letter queue kept 14 days.
 */
export function retriedRule(scope: Construct, id: string, props: RetriedRuleProps): Rule {
  const deadLetterQueue = new Queue(scope, props.deadLetterId, {
    enforceSSL: true,
    encryption: QueueEncryption.SQS_MANAGED,
    retentionPeriod: Duration.days(14),
  });
  Validations.of(deadLetterQueue).acknowledge({
    id: 'AwsSolutions-SQS3',
    reason: `This queue is the dead-letter queue of ${props.deadLetterOf}; it needs none of its own.`,
  });
  return new Rule(scope, id, {
    eventBus: props.eventBus,
    description: props.description,
    eventPattern: props.eventPattern,
    targets: [props.target({ retryAttempts: 8, maxEventAge: Duration.hours(6), deadLetterQueue })],
  });
}
