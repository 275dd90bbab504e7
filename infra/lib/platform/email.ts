import { Duration, Stack } from 'aws-cdk-lib';
import { Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { type IGrantable, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { CloudWatchDimensionSource, ConfigurationSet, EmailIdentity, EmailSendingEvent, EventDestination, Identity } from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';
import type { AppFunction } from './app-function';
import { AppTable } from './tables';

/** The CloudWatch dimension SES fills from every email's configuration set. */
const CONFIGURATION_SET_DIMENSION = 'ses:configuration-set';

export interface EmailSendingProps {
  senderEmail: string;
  stage: string;
  /** The public site our emails link to. */
  siteUrl: string;
}

/**
 * SES sending: the sender's domain as an identity (DKIM records to add at the DNS host are
 * in the console) and a configuration set that every email names. The set publishes bounces
 * and complaints as CloudWatch metrics (counts only, no addresses), which the alarms watch.
 * A function that sends is bound to it with `AppFunction.bindEmail`.
 *
 * The outbox (functions/shared/email.ts, decision 041) is its table: emails that follow a
 * committed change are written there in the change's own transaction and sent from there until
 * they go. A function that writes and sends them is bound with `bindOutbox`.
 */
export class EmailSending extends Construct {
  readonly configurationSet: ConfigurationSet;
  /** Emails waiting to be sent (by id); sent ones keep only their times, then expire. */
  readonly outbox: AppTable;
  readonly senderEmail: string;
  readonly siteUrl: string;
  private readonly identityArn: string;

  constructor(scope: Construct, id: string, props: EmailSendingProps) {
    super(scope, id);
    this.senderEmail = props.senderEmail;
    this.siteUrl = props.siteUrl;
    const domain = props.senderEmail.split('@')[1];
    const identity = new EmailIdentity(this, 'SenderDomain', { identity: Identity.domain(domain) });
    this.identityArn = Stack.of(this).formatArn({
      service: 'ses',
      resource: 'identity',
      resourceName: identity.emailIdentityName,
    });
    this.configurationSet = new ConfigurationSet(this, 'ConfigurationSet', {
      configurationSetName: `marketplace-${props.stage}`,
    });
    this.configurationSet.addEventDestination('BouncesAndComplaints', {
      destination: EventDestination.cloudWatchDimensions([
        {
          name: CONFIGURATION_SET_DIMENSION,
          source: CloudWatchDimensionSource.MESSAGE_TAG,
          defaultValue: this.configurationSet.configurationSetName,
        },
      ]),
      events: [EmailSendingEvent.BOUNCE, EmailSendingEvent.COMPLAINT],
    });
    this.outbox = new AppTable(this, 'Outbox', { partitionKey: 'id', timeToLiveAttribute: 'expiresAt', retain: false });
  }

  /**
   * Lets the function write emails to the outbox in its changes' transactions and send them
   * (sending is `bindEmail`'s grant); `drains`: it also sends whatever waits there (a Scan).
   */
  bindOutbox(fn: AppFunction, options: { drains?: boolean } = {}): AppFunction {
    return fn
      .bindEmail(this)
      .bindTable(this.outbox, 'OUTBOX_TABLE', ['PutItem', 'GetItem', 'UpdateItem', ...(options.drains ? (['Scan'] as const) : [])], { indexes: false });
  }

  /** Bounces or complaints of our emails, summed per 15 minutes. */
  metric(name: 'Bounce' | 'Complaint'): Metric {
    return new Metric({
      namespace: 'AWS/SES',
      metricName: name,
      dimensionsMap: { [CONFIGURATION_SET_DIMENSION]: this.configurationSet.configurationSetName },
      statistic: 'Sum',
      period: Duration.minutes(15),
    });
  }

  /** Lets a function send from our identity with our configuration set, and nothing else. */
  grantSend(grantee: IGrantable): void {
    const configurationSetArn = Stack.of(this).formatArn({
      service: 'ses',
      resource: 'configuration-set',
      resourceName: this.configurationSet.configurationSetName,
    });
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['ses:SendEmail'], resources: [this.identityArn, configurationSetArn] }),
    );
  }
}
