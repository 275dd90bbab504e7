import * as path from 'node:path';
import { CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import { ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { Accounts } from './domains/accounts';
import { Catalog } from './domains/catalog';
import { Console } from './domains/console';
import { Contact } from './domains/contact';
import { Founding } from './domains/founding';
import { Generation } from './domains/generation';
import { Likeness } from './domains/likeness';
import { Payments } from './domains/payments';
import { Payouts } from './domains/payouts';
import { Reports } from './domains/reports';
import { Royalties } from './domains/royalties';
import { Training } from './domains/training';
import { Waitlist } from './domains/waitlist';
import { Alarms } from './platform/alarms';
import { REPO_ROOT } from './platform/app-function';
import { Auth } from './platform/auth';
import { PrivateBucket } from './platform/buckets';
import { ApiDistribution, EdgeFirewall } from './platform/edge';
import { EmailSending } from './platform/email';
import { MarketplaceBus } from './platform/event-bus';
import { MarketplaceApi } from './platform/http-api';
import { applyNagSuppressions } from './platform/nag';
import type { Platform } from './platform/platform';
import type { StageConfig } from './platform/stage-config';
import { StaticSite } from './platform/static-site';
import { idempotencyRecords, rateLimitCounters } from './platform/transient-records';

/**
 * The whole product for one stage: the platform (platform/), then one construct per domain
 * (domains/). Generation, royalties and likeness are nested stacks of their own: with them the
 * main stack would pass CloudFormation's 500 resources (decision 032).
 */
export class MarketplaceStack extends Stack {
  constructor(scope: Construct, id: string, config: StageConfig, props?: StackProps) {
    super(scope, id, props);
    const platform = this.platform(config);

    const waitlist = new Waitlist(this, 'Waitlist', platform);
    const contact = new Contact(this, 'Contact', platform);
    const catalog = new Catalog(this, 'Catalog', platform);
    const founding = new Founding(this, 'Founding', platform, { talentTable: catalog.table });
    const accounts = new Accounts(this, 'Accounts', platform, { applicationsTable: founding.table, talentTable: catalog.table });
    const tables = { accountsTable: accounts.table, talentTable: catalog.table, applicationsTable: founding.table };
    const generation = new Generation(this, 'Generation', platform, tables);
    new Royalties(this, 'Royalties', platform, { ...tables, generationsTable: generation.table });
    const training = new Training(this, 'Training', platform, { ...tables, photosBucket: founding.bucket, replicateToken: generation.replicateToken });
    new Likeness(this, 'Likeness', platform, { ...tables, generationsTable: generation.table, trainingTable: training.table, trainingsByTalentArn: training.byTalentIndexArn });
    const payments = new Payments(this, 'Payments', platform, { accountsTable: accounts.table });
    // The proof of person verifies IDs with Stripe Identity, through the Payments stack's key.
    founding.verifyIdentities({ stripeSecretKey: payments.stripeSecretKey });
    const payouts = new Payouts(this, 'Payouts', platform, { ...tables, generationsTable: generation.table, stripeSecretKey: payments.stripeSecretKey });
    const reports = new Reports(this, 'Reports', platform, { ...tables, generationsTable: generation.table, imagesBucket: generation.images });
    // A report's decision acts on an account and on the catalog: their wings' consumers, in the Reports stack.
    accounts.suspendReportedClients(reports, platform);
    catalog.removeReportedSamples(reports, platform);
    new Console(this, 'Console', platform, {
      waitlistTable: waitlist.table,
      messagesTable: contact.table,
      applicationsTable: founding.table,
      accountsTable: accounts.table,
      generationsTable: generation.table,
      payoutsTable: payouts.table,
      photosBucket: founding.bucket,
      imagesBucket: generation.images,
      trainingTable: training.table,
      trainingsByTalentArn: training.byTalentIndexArn,
      trainingBucket: training.bucket,
      replicateToken: generation.replicateToken,
      paymentsTable: payments.table,
      stripeSecretKey: payments.stripeSecretKey,
      reportsTable: reports.table,
    });

    // Last: the alarms walk the stack for every function, queue and state machine created above.
    const alarms = new Alarms(this, 'Alarms', { email: platform.email, alarmEmail: config.alarmEmail });
    new CfnOutput(this, 'AlarmTopicArn', { value: alarms.topic.topicArn });
    applyNagSuppressions(this);
  }

  /** What no domain owns: the sites and their edge, the API, the user pool, the bus, email, and the shared records. */
  private platform(config: StageConfig): Platform {
    const logBucket = new PrivateBucket(this, 'AccessLogs', {
      // CloudFront standard logs are delivered with ACLs.
      objectOwnership: ObjectOwnership.OBJECT_WRITER,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      retain: config.retainData,
    });

    const { bus } = new MarketplaceBus(this, 'Events', config);

    // WAF in front of the API's and the sites' distributions (decision 016).
    const firewall = new EdgeFirewall(this, 'Edge', { postLimit: config.wafPostLimit, requestLimit: config.wafRequestLimit });
    // The browser talks to the API through its distribution (cloudfront.net) and to Cognito and S3 (amazonaws.com).
    const connectSources = ['https://*.cloudfront.net', 'https://*.amazonaws.com'];
    const web = new StaticSite(this, 'WebSite', { connectSources, logBucket, webAclArn: firewall.webAcl.attrArn });
    const admin = new StaticSite(this, 'AdminSite', { connectSources, logBucket, webAclArn: firewall.webAcl.attrArn });
    const siteUrl = config.siteUrl ?? `https://${config.domainName ?? web.distribution.distributionDomainName}`;
    const adminUrl = `https://${admin.distribution.distributionDomainName}`;

    const email = new EmailSending(this, 'Email', { ...config, siteUrl });
    const auth = new Auth(this, 'Auth', config, { siteUrl, configurationSetName: email.configurationSet.configurationSetName });
    const api = new MarketplaceApi(this, 'Http', {
      allowOrigins: [siteUrl, adminUrl, ...config.siteOrigins],
      userPool: auth.userPool,
      adminClient: auth.adminClient,
      webClient: auth.webClient,
    });
    const apiEdge = new ApiDistribution(this, 'ApiEdge', { api, firewall, logBucket });

    if (config.deploySites) {
      const common = { apiUrl: apiEdge.url, stage: config.stage, region: this.region, userPoolId: auth.userPool.userPoolId };
      web.deploy(path.join(REPO_ROOT, 'web', 'dist'), {
        ...common,
        userPoolClientId: auth.webClient.userPoolClientId,
        contactEmail: config.contactEmail,
        prelaunch: true,
        // Google sign-in: the site offers it only when the stage configures it.
        ...(auth.oauthDomain && { oauthDomain: auth.oauthDomain, googleSignIn: true }),
      }, { siteUrl });
      admin.deploy(path.join(REPO_ROOT, 'admin', 'dist'), { ...common, userPoolClientId: auth.adminClient.userPoolClientId, siteUrl });
    }
    new CfnOutput(this, 'ApiUrl', { value: apiEdge.url });
    new CfnOutput(this, 'WebUrl', { value: siteUrl });
    new CfnOutput(this, 'AdminUrl', { value: adminUrl });
    new CfnOutput(this, 'UserPoolId', { value: auth.userPool.userPoolId });

    return {
      config,
      api,
      bus,
      email,
      idempotency: idempotencyRecords(this),
      rateLimits: rateLimitCounters(this),
      userPool: auth.userPool,
      siteUrl,
      adminUrl,
      logBucket,
    };
  }
}
