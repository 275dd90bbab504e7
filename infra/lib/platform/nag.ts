import { Names, NestedStack, Stack, Token, Validations } from 'aws-cdk-lib';
import { CfnBucket } from 'aws-cdk-lib/aws-s3';
import { CfnTable } from 'aws-cdk-lib/aws-dynamodb';
import { CfnRoute } from 'aws-cdk-lib/aws-apigatewayv2';
import { Distribution } from 'aws-cdk-lib/aws-cloudfront';
import { UserPool } from 'aws-cdk-lib/aws-cognito';
import type { IConstruct } from 'constructs';
import { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { StateMachine } from 'aws-cdk-lib/aws-stepfunctions';
import { ManagedPolicy } from 'aws-cdk-lib/aws-iam';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { GENERATION_IMAGES_PREFIX } from '../../../events/resource-names';
import { AppFunction, XRAY_WRITE_POLICY_ID } from './app-function';

const ack = (c: IConstruct, id: string, reason: string) => Validations.of(c).acknowledge({ id, reason });

/**
 * Every cdk-nag AwsSolutions finding we accept, each with its reason. Findings not listed
 * here fail the infra tests.
 */
export function applyNagSuppressions(stack: Stack): void {
  const siteBuckets = stack.node
    .findAll()
    .filter((c): c is CfnBucket => c instanceof CfnBucket && /Site\/Bucket\/Resource$/.test(c.node.path))
    .map((b) => `Resource::<${stack.getLogicalId(b)}.Arn>/*`);
  const account = Token.isUnresolved(stack.account) ? '<AWS::AccountId>' : stack.account;
  const region = Token.isUnresolved(stack.region) ? '<AWS::Region>' : stack.region;
  const assets = `Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-${account}-${region}/*`;
  // Founding photos: functions are granted object actions under one key prefix (pending/ or applications/).
  const photoPrefixes = stack.node
    .findAll()
    .filter((c): c is CfnBucket => c instanceof CfnBucket && /Founding\/Photos\/Resource$/.test(c.node.path))
    .flatMap((b) => ['pending/*', 'applications/*'].map((p) => `Resource::<${stack.getLogicalId(b)}.Arn>/${p}`));
  // Delivered images: functions that write or sign them are granted object actions under generations/ only.
  const imagePrefixes = stack.node
    .findAll()
    .filter((c): c is CfnBucket => c instanceof CfnBucket && /Generation\/GeneratedImages\/Resource$/.test(c.node.path))
    .map((b) => `Resource::<${Stack.of(b).getLogicalId(b)}.Arn>/${GENERATION_IMAGES_PREFIX}*`);
  // The same prefix granted from the main stack (the console's erasure), where the bucket's ARN is
  // an output of the Generation nested stack: `<nested stack resource>.Outputs.<bucket id>Arn`.
  const imagePrefixesFromMain = stack.node
    .findAll()
    .filter((c): c is CfnBucket => c instanceof CfnBucket && /Generation\/GeneratedImages\/Resource$/.test(c.node.path))
    .flatMap((b) => {
      const nested = Stack.of(b);
      if (!(nested instanceof NestedStack) || !nested.nestedStackResource) return [];
      return [`Resource::<${stack.getLogicalId(nested.nestedStackResource)}.Outputs.${Names.uniqueId(b)}Arn>/${GENERATION_IMAGES_PREFIX}*`];
    });
  // The Training stack's bucket granted from the main stack (the console's erasure deletes a
  // talent's training sets and samples), its ARN an output of the nested stack.
  const trainingPrefixesFromMain = stack.node
    .findAll()
    .filter((c): c is CfnBucket => c instanceof CfnBucket && /Training\/TrainingFiles\/Resource$/.test(c.node.path))
    .flatMap((b) => {
      const nested = Stack.of(b);
      const resource = nested instanceof NestedStack ? nested.nestedStackResource : undefined;
      if (!resource) return [];
      return ['training-sets/*', 'samples/*'].map((p) => `Resource::<${stack.getLogicalId(resource)}.Outputs.${Names.uniqueId(b)}Arn>/${p}`);
    });
  // The Training stack: the founding photos it reads under applications/ (the bucket's ARN a
  // parameter of the nested stack), and its own bucket's training-sets/ and samples/.
  const trainingPrefixes = stack.node
    .findAll()
    .filter((c): c is CfnBucket => c instanceof CfnBucket && /(Founding\/Photos|Training\/TrainingFiles)\/Resource$/.test(c.node.path))
    .flatMap((b) =>
      b.node.path.includes('/Training/')
        ? ['training-sets/*', 'samples/*'].map((p) => `Resource::<${Stack.of(b).getLogicalId(b)}.Arn>/${p}`)
        : [`Resource::<referenceto${Names.uniqueId(b)}Arn>/applications/*`],
    );
  // The proof of person's functions (the Identity nested stack) reach the founding photos bucket of the main stack.
  const identityPrefixes = stack.node
    .findAll()
    .filter((c): c is CfnBucket => c instanceof CfnBucket && /Founding\/Photos\/Resource$/.test(c.node.path))
    .flatMap((b) => ['applications/*', 'applications/*/identity/*', 'pending/*'].map((p) => `Resource::<referenceto${Names.uniqueId(b)}Arn>/${p}`));
  // AppFunction.bindTable grants Query/Scan on a bound table's indexes as `<table>/index/*`.
  const tableIndexes = stack.node
    .findAll()
    .filter((c): c is CfnTable => c instanceof CfnTable)
    .map((t) => `Resource::<${stack.getLogicalId(t)}.Arn>/index/*`);
  const functionRoles = new Set(
    stack.node
      .findAll()
      .filter((c): c is AppFunction => c instanceof AppFunction)
      .map((f) => f.role?.node.path),
  );
  for (const c of stack.node.findAll()) {
    if (functionRoles.has(c.node.path)) {
      for (const finding of tableIndexes) {
        ack(c, `AwsSolutions-IAM5[${finding}]`, 'Query/Scan on the indexes of a table the function is bound to (bindTable); only those read actions reach the indexes, and a function that needs one index is granted that index by name.');
      }
    }
    if (c instanceof ManagedPolicy && c.node.id === XRAY_WRITE_POLICY_ID) {
      ack(c, 'AwsSolutions-IAM5[Resource::*]', 'X-Ray PutTraceSegments and PutTelemetryRecords support no resource-level permissions; the policy grants those two actions only.');
    }
    if (c instanceof AppFunction) {
      ack(c, 'AwsSolutions-L1', 'nodejs22.x is the Node version the local twin, CI and the benchmarks run (the node@22 devDependency); the runtime moves with them.');
    }
    if (c instanceof Distribution) {
      ack(c, 'AwsSolutions-CFR1', 'The marketing site, console and API are offered worldwide; no geo restriction is wanted.');
      ack(c, 'AwsSolutions-CFR4', 'Until a stage sets domainName with an ACM certificate, the default CloudFront certificate is used, whose TLS policy cannot be set.');
    }
    if (c instanceof Secret && c.node.path.endsWith('/OriginVerify')) {
      ack(c, 'AwsSolutions-SMG4', 'The origin-verify header value is copied into the API distribution and the functions at deploy time; a rotation would refuse traffic until the next deployment. Rotate by redeploying after changing it.');
    }
    if (c instanceof Secret && c.node.path.endsWith('/Generation/ReplicateToken')) {
      ack(c, 'AwsSolutions-SMG4', 'The Replicate API token is issued by Replicate, which has no rotation hook; a new token is created there and put into this secret by hand.');
    }
    if (c instanceof Secret && c.node.path.endsWith('/Generation/ContentCredentialsChain')) {
      ack(c, 'AwsSolutions-SMG4', 'The Content Credentials certificate chain is public data issued by a CA; a renewed certificate is put into this secret by hand when the CA issues it (decision 062).');
    }
    if (c instanceof Secret && /\/Payments\/Stripe(SecretKey|WebhookSecret)$/.test(c.node.path)) {
      ack(c, 'AwsSolutions-SMG4', 'Stripe issues its secret key and the webhook endpoint\'s signing secret and has no rotation hook; a rolled key or secret is put into this secret by hand (docs/payments.md).');
    }
    if (c instanceof Secret && c.node.path.endsWith('/Payouts/StripeConnectWebhookSecret')) {
      ack(c, 'AwsSolutions-SMG4', 'Stripe issues the Connect webhook endpoint\'s signing secret and has no rotation hook; a rolled secret is put into this secret by hand (docs/payouts.md).');
    }
    if (c instanceof Secret && c.node.path.endsWith('/Identity/StripeIdentityWebhookSecret')) {
      ack(c, 'AwsSolutions-SMG4', 'Stripe issues the Identity webhook endpoint\'s signing secret and has no rotation hook; a rolled secret is put into this secret by hand (docs/identity.md).');
    }
    if (c instanceof Secret && c.node.path.endsWith('/Identity/IdentityKey')) {
      ack(c, 'AwsSolutions-SMG4', 'The identity key encrypts stored face analyses, which live at most as long as an application\'s photos; a rotation would need every sealed file re-encrypted, so a new key is put in by hand with a re-encryption run (docs/identity.md).');
    }
    if (/\/Identity\/[A-Za-z]+Role$/.test(c.node.path)) {
      for (const finding of identityPrefixes) {
        ack(c, `AwsSolutions-IAM5[${finding}]`, 'Object keys under this prefix are generated per application (photos, thumbnails, the selfie and sealed face analyses under identity/); the grant names the exact actions and is limited to the prefix.');
      }
    }
    if (c instanceof UserPool) {
      ack(c, 'AwsSolutions-COG2', 'MFA is optional (TOTP) for clients and talent; requiring it would block sign-up for the public. Admins are asked to enable it.');
      ack(c, 'AwsSolutions-COG8', 'Plus (threat protection) is a stage setting, enforced on prod and audited elsewhere; a stage with threatProtection=off stays on Essentials to save its per-user price (decision 040).');
    }
    if (c instanceof CfnRoute && c.authorizationType !== 'JWT') {
      ack(c, 'AwsSolutions-APIG4', 'Public route of the site (waitlist, conversion, talent catalog, contact); it validates its input and the stage is throttled.');
    }
    if (/\/(Founding|Console)\/[A-Za-z]+Role$/.test(c.node.path)) {
      for (const finding of photoPrefixes) {
        ack(c, `AwsSolutions-IAM5[${finding}]`, 'Object keys under this prefix are generated per applicant or application; the grant names the exact actions and is limited to the prefix.');
      }
    }
    if (/\/Console\/ErasePersonRole$/.test(c.node.path)) {
      for (const finding of imagePrefixesFromMain) {
        ack(c, `AwsSolutions-IAM5[${finding}]`, 'Erasure reads and deletes a client\'s delivered images, whose keys under generations/ are generated per client, generation and license; the grant names the exact actions and is limited to the prefix (decision 035).');
      }
      for (const finding of trainingPrefixesFromMain) {
        ack(c, `AwsSolutions-IAM5[${finding}]`, 'Erasure deletes a talent\'s training sets and samples, whose keys are generated per training; the grant names the exact action and is limited to the prefix.');
      }
    }
    if (/\/Generation\/[A-Za-z]+Role$/.test(c.node.path)) {
      for (const finding of imagePrefixes) {
        ack(c, `AwsSolutions-IAM5[${finding}]`, 'Image keys under generations/ are generated per client, generation and license; the grant names the exact actions and is limited to the prefix.');
      }
    }
    if (/\/Training\/[A-Za-z]+Role$/.test(c.node.path)) {
      for (const finding of trainingPrefixes) {
        ack(c, `AwsSolutions-IAM5[${finding}]`, 'Object keys under this prefix are generated per application or training; the grant names the exact actions and is limited to the prefix.');
      }
    }
    if (/\/Founding\/Workflow\/Role$|\/Generation\/GenerationWorkflow\/Role$|\/Royalties\/RoyaltyClose\/Role$|\/Training\/LikenessTraining\/Role$/.test(c.node.path)) {
      ack(c, 'AwsSolutions-IAM5[Resource::*]', 'X-Ray trace segments and CloudWatch Logs log delivery (the state machine\'s tracing and logging) support no resource-level permissions; CDK grants exactly those actions.');
    }
    // A state machine's Lambda steps (CDK's LambdaInvoke) are granted their function and its versions and aliases.
    if (c instanceof StateMachine) {
      for (const fn of stack.node.findAll().filter((f): f is AppFunction => f instanceof AppFunction)) {
        const id = stack.getLogicalId(fn.node.defaultChild as CfnFunction);
        ack(c.role, `AwsSolutions-IAM5[Resource::<${id}.Arn>:*]`, 'lambda:InvokeFunction on one step function\'s own versions and aliases (`<arn>:*`), as CDK\'s LambdaInvoke grants it; no other function is reachable.');
      }
    }
    // CDK's own handler that turns on the photos bucket's EventBridge notifications.
    if (c.node.id.startsWith('BucketNotificationsHandler')) {
      ack(c, 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]', 'CDK-managed handler that configures bucket notifications at deploy time; its role is created by aws-cdk-lib.');
    }
    // CDK's own BucketDeployment provider, which uploads the built sites.
    if (c.node.id.startsWith('Custom::CDKBucketDeployment')) {
      ack(c, 'AwsSolutions-L1', 'Runtime of the CDK-managed BucketDeployment provider is chosen by aws-cdk-lib.');
      const policy = 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole]';
      ack(c, policy, 'CDK-managed BucketDeployment provider role.');
      const findings = ['Action::s3:Abort*', 'Action::s3:DeleteObject*', 'Action::s3:GetBucket*', 'Action::s3:GetObject*', 'Action::s3:List*', 'Resource::*', assets, ...siteBuckets];
      for (const finding of findings) {
        ack(c, `AwsSolutions-IAM5[${finding}]`, 'CDK-managed BucketDeployment provider: syncs the built site into its bucket and invalidates CloudFront.');
      }
    }
  }
}
