import * as path from 'node:path';
import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { HttpMethod } from 'aws-cdk-lib/aws-apigatewayv2';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { GENERATIONS_CREATED_INDEX as CREATED_INDEX } from '../../events/resource-names';
import { AppFunction, REPO_ROOT } from './app-function';
import { Alarms } from './constructs/alarms';
import { AccountAdmin } from './constructs/account-admin';
import { Accounts } from './constructs/accounts';
import { Auth } from './constructs/auth';
import { Catalog } from './constructs/catalog';
import { Contact } from './constructs/contact';
import { EmailSending } from './constructs/email';
import { Erasure } from './constructs/erasure';
import { ApiDistribution, EdgeFirewall } from './constructs/edge';
import { MarketplaceBus } from './constructs/event-bus';
import { Founding } from './constructs/founding';
import { Generation } from './constructs/generation';
import { MarketplaceApi } from './constructs/http-api';
import { IdempotencyStore } from './constructs/idempotency';
import { RateLimits } from './constructs/rate-limits';
import { StaticSite } from './constructs/static-site';
import { Waitlist } from './constructs/waitlist';
import { applyNagSuppressions } from './nag';
import type { StageConfig } from './stage-config';

/** The whole product for one stage. */
export class MarketplaceStack extends Stack {
  constructor(scope: Construct, id: string, config: StageConfig, props?: StackProps) {
    super(scope, id, props);

    const logBucket = new Bucket(this, 'AccessLogs', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // CloudFront standard logs are delivered with ACLs.
      objectOwnership: ObjectOwnership.OBJECT_WRITER,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      removalPolicy: config.retainData ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY,
      autoDeleteObjects: !config.retainData,
    });

    const { bus } = new MarketplaceBus(this, 'Events', config);
    const email = new EmailSending(this, 'Email', config);

    // WAF in front of the API's and the sites' distributions (decision 016).
    const firewall = new EdgeFirewall(this, 'Edge', { postLimit: config.wafPostLimit, requestLimit: config.wafRequestLimit });
    // The browser talks to the API through its distribution (cloudfront.net) and to Cognito and S3 (amazonaws.com).
    const connectSources = ['https://*.cloudfront.net', 'https://*.amazonaws.com'];
    const web = new StaticSite(this, 'WebSite', { connectSources, logBucket, webAclArn: firewall.webAcl.attrArn });
    const admin = new StaticSite(this, 'AdminSite', { connectSources, logBucket, webAclArn: firewall.webAcl.attrArn });
    const webUrl = config.siteUrl ?? `https://${config.domainName ?? web.distribution.distributionDomainName}`;
    const adminUrl = `https://${admin.distribution.distributionDomainName}`;
    const auth = new Auth(this, 'Auth', config, { siteUrl: webUrl, configurationSetName: email.configurationSet.configurationSetName });

    const api = new MarketplaceApi(this, 'Http', {
      allowOrigins: [webUrl, adminUrl, ...config.siteOrigins],
      userPool: auth.userPool,
      adminClient: auth.adminClient,
      webClient: auth.webClient,
    });
    const apiEdge = new ApiDistribution(this, 'ApiEdge', { api, firewall, logBucket });

    // Records of idempotent operations (functions/shared/idempotency.ts), bound to each user.
    const idempotency = new IdempotencyStore(this, 'Idempotency');
    // Per-IP, per-address and per-session limits on the free actions (functions/shared/rate-limit.ts).
    const rateLimits = new RateLimits(this, 'RateLimits');

    const waitlist = new Waitlist(this, 'Waitlist', {
      api,
      bus,
      idempotency,
      rateLimits,
      email,
      capacity: config.waitlistCapacity,
      siteUrl: webUrl,
      retainData: config.retainData,
    });

    const catalog = new Catalog(this, 'Catalog', { api, retainData: config.retainData });

    const contact = new Contact(this, 'Contact', {
      api,
      bus,
      idempotency,
      rateLimits,
      email,
      contactEmail: config.contactEmail,
      siteUrl: webUrl,
      retainData: config.retainData,
    });
    // The dashboard counts failed contact emails.
    waitlist.stats.bindTable(contact.table, 'MESSAGES_TABLE', ['Scan'], { indexes: false });

    const founding = new Founding(this, 'Founding', {
      api,
      bus,
      idempotency,
      email,
      rateLimits,
      reviewersEmail: config.contactEmail,
      siteUrl: webUrl,
      adminUrl,
      userPool: auth.userPool,
      talentTable: catalog.table,
      siteOrigins: [...new Set([webUrl, ...config.siteOrigins])],
      logBucket,
      retainData: config.retainData,
      validatorConcurrency: config.validatorConcurrency,
    });
    // The dashboard reads the founding spots counter and the applications index.
    waitlist.stats.bindTable(founding.table, 'APPLICATIONS_TABLE', ['GetItem', 'Query']);

    // Accounts, credits and the /me routes (docs/product.md#accounts, decision 021).
    const accounts = new Accounts(this, 'Accounts', {
      api,
      rateLimits,
      applicationsTable: founding.table,
      talentTable: catalog.table,
      retainData: config.retainData,
    });
    accounts.bindCreator(auth.postConfirmation);

    // Generation, credits spending and licenses, in a nested stack (decisions 026, 027).
    const generation = new Generation(this, 'Generation', {
      api,
      rateLimits,
      idempotency,
      accountsTable: accounts.table,
      talentTable: catalog.table,
      applicationsTable: founding.table,
      siteUrl: webUrl,
      replicateTokenSecretName: config.replicateTokenSecretName,
      logBucket,
      retainData: config.retainData,
      email,
      removalNoticeSeconds: config.removalNoticeSeconds,
    });
    // The dashboard counts failed generations on the list index: Query on that index only (the
    // table is the nested stack's, so the grant names the index rather than `index/*`).
    waitlist.stats.addEnvironment('GENERATIONS_TABLE', generation.table.tableName);
    waitlist.stats.addToRolePolicy(new PolicyStatement({ actions: ['dynamodb:Query'], resources: [`${generation.table.tableArn}/index/${CREATED_INDEX}`] }));

    // Erasure of a person's data by email (decision 019).
    new Erasure(this, 'Erasure', {
      api,
      waitlistTable: waitlist.table,
      messagesTable: contact.table,
      applicationsTable: founding.table,
      idempotencyTable: idempotency.table,
      accountsTable: accounts.table,
      photosBucket: founding.bucket,
      userPool: auth.userPool,
      retainData: config.retainData,
    });
    // The console's Users resource: plans, credit grants, disabling, with an audit of every change.
    new AccountAdmin(this, 'AccountAdmin', { api, accountsTable: accounts.table, userPool: auth.userPool });

    const conversion = new AppFunction(this, 'RecordConversion', {
      entry: 'functions/waitlist/routes/record-conversion/handler.ts',
      description: 'POST /events/conversion: records a signup conversion on the bus',
    }).bindBus(bus);
    idempotency.bind(conversion);
    api.publicRoute('/events/conversion', HttpMethod.POST, conversion, 'RecordConversion');

    if (config.deploySites) {
      const common = { apiUrl: apiEdge.url, stage: config.stage, region: this.region, userPoolId: auth.userPool.userPoolId };
      web.deploy(path.join(REPO_ROOT, 'web', 'dist'), {
        ...common,
        userPoolClientId: auth.webClient.userPoolClientId,
        contactEmail: config.contactEmail,
        prelaunch: true,
        // Google sign-in: the site offers it only when the stage configures it.
        ...(auth.oauthDomain && { oauthDomain: auth.oauthDomain, googleSignIn: true }),
      }, { siteUrl: webUrl });
      admin.deploy(path.join(REPO_ROOT, 'admin', 'dist'), { ...common, userPoolClientId: auth.adminClient.userPoolClientId, siteUrl: webUrl });
    }

    new CfnOutput(this, 'ApiUrl', { value: apiEdge.url });
    new CfnOutput(this, 'WebUrl', { value: webUrl });
    new CfnOutput(this, 'AdminUrl', { value: adminUrl });
    new CfnOutput(this, 'UserPoolId', { value: auth.userPool.userPoolId });
    // Last: the alarms walk the stack for every function, queue and state machine created above.
    const alarms = new Alarms(this, 'Alarms', { email, alarmEmail: config.alarmEmail });
    new CfnOutput(this, 'AlarmTopicArn', { value: alarms.topic.topicArn });
    applyNagSuppressions(this);
  }
}
