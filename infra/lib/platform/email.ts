import { Duration, Stack } from 'aws-cdk-lib';
import { Metric } from 'aws-cdk-lib/aws-cloudwatch';
import { type IGrantable, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { CloudWatchDimensionSource, ConfigurationSet, EmailIdentity, EmailSendingEvent, EventDestination, Identity } from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';

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
 */
export class EmailSending extends Construct {
  readonly configurationSet: ConfigurationSet;
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
