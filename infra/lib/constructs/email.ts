import { Stack } from 'aws-cdk-lib';
import { type IGrantable, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { ConfigurationSet, EmailIdentity, Identity } from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';

/**
 * SES sending: the sender's domain as an identity (DKIM records to add at the DNS host are
 * in the console) and a configuration set that every email names.
 */
export class EmailSending extends Construct {
  readonly configurationSet: ConfigurationSet;
  readonly senderEmail: string;
  private readonly identityArn: string;

  constructor(scope: Construct, id: string, props: { senderEmail: string; stage: string }) {
    super(scope, id);
    this.senderEmail = props.senderEmail;
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
