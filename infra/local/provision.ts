// Creates the twin's tables, buckets and user pool from the synthesized template's resource
// Properties (intrinsics already resolved by the caller). Every function is idempotent, so the
// twin can be restarted on a persistent data directory.
//
// The pure `to*` mappers translate CloudFormation property shapes into API inputs; where the two
// differ (CFN StreamSpecification, CorsRules.ExposedHeaders/MaxAge, ...) the mapping is here.
import * as fs from 'node:fs';
import { DynamoDBDocumentClient, PutCommand } from '@aws-sdk/lib-dynamodb';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
  type CreateTableCommandInput,
  type GlobalSecondaryIndex,
} from '@aws-sdk/client-dynamodb';
import {
  CreateBucketCommand,
  HeadBucketCommand,
  PutBucketCorsCommand,
  S3Client,
  type CORSConfiguration,
} from '@aws-sdk/client-s3';
import {
  AdminAddUserToGroupCommand,
  AdminCreateUserCommand,
  AdminGetUserCommand,
  AdminSetUserPasswordCommand,
  AssociateSoftwareTokenCommand,
  CognitoIdentityProviderClient,
  CreateGroupCommand,
  CreateUserPoolClientCommand,
  CreateUserPoolCommand,
  InitiateAuthCommand,
  ListGroupsCommand,
  ListUserPoolClientsCommand,
  ListUserPoolsCommand,
  SetUserMFAPreferenceCommand,
  VerifySoftwareTokenCommand,
  type CreateUserPoolClientCommandInput,
  type CreateUserPoolCommandInput,
} from '@aws-sdk/client-cognito-identity-provider';
import { TWIN_CREDENTIALS, TWIN_REGION } from './emulators/ports';
import { totpCode } from './totp';

/* eslint-disable @typescript-eslint/no-explicit-any -- CloudFormation properties are untyped JSON */
type CfnProps = Record<string, any>;

const clientConfig = (endpoint: string) => ({
  endpoint,
  region: TWIN_REGION,
  credentials: { ...TWIN_CREDENTIALS },
});

/** Copies the listed keys that are present (CloudFormation and API share these names). */
function pick(source: CfnProps | undefined, keys: readonly string[]): CfnProps {
  const out: CfnProps = {};
  for (const key of keys) if (source?.[key] !== undefined) out[key] = source[key];
  return out;
}

const num = (value: unknown): number => Number(value);

// ---------------------------------------------------------------------------------------------
// DynamoDB

export interface TableSpec {
  name: string;
  /** AWS::DynamoDB::Table Properties */
  properties: CfnProps;
}

function throughput(value: CfnProps | undefined) {
  return value ? { ReadCapacityUnits: num(value.ReadCapacityUnits), WriteCapacityUnits: num(value.WriteCapacityUnits) } : undefined;
}

/** AWS::DynamoDB::Table Properties -> CreateTable input. */
export function toCreateTableInput(name: string, props: CfnProps): CreateTableCommandInput {
  // CloudFormation's default billing mode is PROVISIONED.
  const billingMode = props.BillingMode === 'PAY_PER_REQUEST' ? 'PAY_PER_REQUEST' : 'PROVISIONED';
  const provisioned = billingMode === 'PROVISIONED';
  const input: CreateTableCommandInput = {
    TableName: name,
    KeySchema: props.KeySchema,
    AttributeDefinitions: props.AttributeDefinitions,
    BillingMode: billingMode,
  };
  if (provisioned) input.ProvisionedThroughput = throughput(props.ProvisionedThroughput) ?? { ReadCapacityUnits: 5, WriteCapacityUnits: 5 };
  if (props.GlobalSecondaryIndexes?.length) {
    input.GlobalSecondaryIndexes = props.GlobalSecondaryIndexes.map(
      (gsi: CfnProps): GlobalSecondaryIndex => ({
        IndexName: gsi.IndexName,
        KeySchema: gsi.KeySchema,
        Projection: gsi.Projection,
        ...(provisioned ? { ProvisionedThroughput: throughput(gsi.ProvisionedThroughput) ?? input.ProvisionedThroughput } : {}),
      }),
    );
  }
  if (props.LocalSecondaryIndexes?.length) {
    input.LocalSecondaryIndexes = props.LocalSecondaryIndexes.map((lsi: CfnProps) => pick(lsi, ['IndexName', 'KeySchema', 'Projection']));
  }
  // CloudFormation: { StreamViewType }; API: { StreamEnabled, StreamViewType }. DynamoDB Local has streams.
  if (props.StreamSpecification?.StreamViewType) {
    input.StreamSpecification = { StreamEnabled: true, StreamViewType: props.StreamSpecification.StreamViewType };
  }
  // Left out on purpose: SSESpecification, PointInTimeRecovery, DeletionProtectionEnabled, TableClass,
  // Tags, Kinesis: DynamoDB Local ignores or lacks them, and deletion protection would only get in
  // the way of resetting a local database.
  return input;
}

async function tableExists(client: DynamoDBClient, name: string): Promise<boolean> {
  try {
    await client.send(new DescribeTableCommand({ TableName: name }));
    return true;
  } catch (err) {
    if (err instanceof ResourceNotFoundException) return false;
    throw err;
  }
}

/** Creates each table (skipping existing ones) and applies its TimeToLiveSpecification. */
export async function createTables(endpoint: string, tables: TableSpec[]): Promise<{ created: string[]; existing: string[] }> {
  const client = new DynamoDBClient(clientConfig(endpoint));
  const created: string[] = [];
  const existing: string[] = [];
  try {
    for (const { name, properties } of tables) {
      if (await tableExists(client, name)) {
        existing.push(name);
        continue;
      }
      try {
        await client.send(new CreateTableCommand(toCreateTableInput(name, properties)));
        created.push(name);
      } catch (err) {
        if (!(err instanceof ResourceInUseException)) throw new Error(`createTables: ${name}: ${(err as Error).message}`, { cause: err });
        existing.push(name);
        continue;
      }
      const ttl = properties.TimeToLiveSpecification;
      if (ttl?.Enabled && ttl.AttributeName) {
        await client.send(
          new UpdateTimeToLiveCommand({ TableName: name, TimeToLiveSpecification: { Enabled: true, AttributeName: ttl.AttributeName } }),
        );
      }
    }
  } finally {
    client.destroy();
  }
  return { created, existing };
}

export interface TableSeed {
  /** Physical table name. */
  name: string;
  /** JSON file holding an array of items (the table's `app:seed` metadata, resolved to a path). */
  file: string;
}

/**
 * Puts every item of each seed file into its table, as the stack's seed custom resource does
 * in AWS: plain puts, so seeding again leaves the same items.
 */
export async function seedTables(endpoint: string, seeds: TableSeed[]): Promise<{ seeded: Record<string, number> }> {
  const doc = DynamoDBDocumentClient.from(new DynamoDBClient(clientConfig(endpoint)));
  const seeded: Record<string, number> = {};
  try {
    for (const { name, file } of seeds) {
      const items: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
      if (!Array.isArray(items)) throw new Error(`seedTables: ${file} must hold a JSON array of items`);
      for (const item of items) await doc.send(new PutCommand({ TableName: name, Item: item }));
      seeded[name] = items.length;
    }
  } finally {
    doc.destroy();
  }
  return { seeded };
}

// ---------------------------------------------------------------------------------------------
// S3

export interface BucketSpec {
  name: string;
  /** AWS::S3::Bucket Properties */
  properties: CfnProps;
}

/** CloudFormation CorsConfiguration -> PutBucketCors input (ExposedHeaders/MaxAge/Id are renamed). */
export function toCorsConfiguration(cors: CfnProps | undefined): CORSConfiguration | undefined {
  const rules: CfnProps[] = cors?.CorsRules ?? [];
  if (!rules.length) return undefined;
  return {
    CORSRules: rules.map((rule) => ({
      AllowedMethods: rule.AllowedMethods,
      AllowedOrigins: rule.AllowedOrigins,
      ...(rule.AllowedHeaders ? { AllowedHeaders: rule.AllowedHeaders } : {}),
      ...(rule.ExposedHeaders ? { ExposeHeaders: rule.ExposedHeaders } : {}),
      ...(rule.MaxAge !== undefined ? { MaxAgeSeconds: num(rule.MaxAge) } : {}),
      ...(rule.Id ? { ID: rule.Id } : {}),
    })),
  };
}

/**
 * Creates each bucket (skipping existing ones) and applies its CORS rules. Other bucket settings
 * (encryption, versioning, lifecycle, public access block, notifications) have no local effect;
 * object events reach EventBridge through the S3 emulator's onObjectCreated.
 */
export async function createBuckets(endpoint: string, buckets: BucketSpec[]): Promise<{ created: string[]; existing: string[] }> {
  const client = new S3Client({ ...clientConfig(endpoint), forcePathStyle: true });
  const created: string[] = [];
  const existing: string[] = [];
  try {
    for (const { name, properties } of buckets) {
      let exists = true;
      try {
        await client.send(new HeadBucketCommand({ Bucket: name }));
      } catch (err) {
        if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode !== 404) throw err;
        exists = false;
      }
      if (exists) existing.push(name);
      else {
        await client.send(new CreateBucketCommand({ Bucket: name }));
        created.push(name);
      }
      const cors = toCorsConfiguration(properties.CorsConfiguration);
      if (cors) await client.send(new PutBucketCorsCommand({ Bucket: name, CORSConfiguration: cors }));
    }
  } finally {
    client.destroy();
  }
  return { created, existing };
}

// ---------------------------------------------------------------------------------------------
// Cognito

export interface UserPoolSpec {
  poolName: string;
  /** AWS::Cognito::UserPool Properties */
  properties: CfnProps;
  groups: Array<{ name: string; properties?: CfnProps }>;
  clients: Array<{ logicalId: string; properties: CfnProps }>;
}

/** AWS::Cognito::UserPool Properties -> CreateUserPool input (the shapes match key for key). */
export function toCreateUserPoolInput(poolName: string, props: CfnProps): CreateUserPoolCommandInput {
  const input = pick(props, [
    'Policies',
    'AutoVerifiedAttributes',
    'AliasAttributes',
    'UsernameAttributes',
    'UsernameConfiguration',
    'SmsVerificationMessage',
    'EmailVerificationMessage',
    'EmailVerificationSubject',
    'VerificationMessageTemplate',
    'SmsAuthenticationMessage',
    'MfaConfiguration',
    'UserAttributeUpdateSettings',
    'DeviceConfiguration',
    'EmailConfiguration',
    'SmsConfiguration',
    'UserPoolTags',
    'AdminCreateUserConfig',
    'UserPoolAddOns',
    'AccountRecoverySetting',
    'UserPoolTier',
  ]) as CreateUserPoolCommandInput;
  input.PoolName = poolName;
  // Custom attributes are declared without the "custom:" prefix, as in the API.
  if (props.Schema?.length) {
    input.Schema = props.Schema.map((attr: CfnProps) => ({
      ...pick(attr, ['Name', 'AttributeDataType', 'DeveloperOnlyAttribute', 'Mutable', 'Required']),
      ...(attr.StringAttributeConstraints
        ? { StringAttributeConstraints: pick(attr.StringAttributeConstraints, ['MinLength', 'MaxLength']) }
        : {}),
      ...(attr.NumberAttributeConstraints
        ? { NumberAttributeConstraints: pick(attr.NumberAttributeConstraints, ['MinValue', 'MaxValue']) }
        : {}),
    }));
  }
  // LambdaConfig is left out: cognito-local takes triggers from its own config (startCognito's
  // `triggers`), not from the pool.
  return input;
}

/** The flows the local twin signs in with. */
const LOCAL_AUTH_FLOWS = ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'] as const;

/** AWS::Cognito::UserPoolClient Properties -> CreateUserPoolClient input. */
export function toCreateUserPoolClientInput(userPoolId: string, logicalId: string, props: CfnProps): CreateUserPoolClientCommandInput {
  const input = pick(props, [
    'GenerateSecret',
    'RefreshTokenValidity',
    'AccessTokenValidity',
    'IdTokenValidity',
    'TokenValidityUnits',
    'ReadAttributes',
    'WriteAttributes',
    'SupportedIdentityProviders',
    'CallbackURLs',
    'LogoutURLs',
    'DefaultRedirectURI',
    'AllowedOAuthFlows',
    'AllowedOAuthScopes',
    'AllowedOAuthFlowsUserPoolClient',
    'PreventUserExistenceErrors',
    'EnableTokenRevocation',
    'AuthSessionValidity',
  ]) as CreateUserPoolClientCommandInput;
  input.UserPoolId = userPoolId;
  // CloudFormation lets ClientName be omitted; the API requires it. The logical id is stable.
  input.ClientName = props.ClientName ?? logicalId;
  // cognito-local has no SRP (USER_SRP_AUTH), so the browser apps sign in locally with
  // USER_PASSWORD_AUTH and refresh with REFRESH_TOKEN_AUTH. Make sure every client allows both,
  // in the ALLOW_* form (Cognito rejects a mix of legacy and ALLOW_* names).
  const flows = new Set<string>(props.ExplicitAuthFlows ?? []);
  for (const legacy of ['USER_PASSWORD_AUTH', 'ADMIN_NO_SRP_AUTH', 'CUSTOM_AUTH_FLOW_ONLY']) {
    if (flows.delete(legacy)) flows.add(legacy === 'ADMIN_NO_SRP_AUTH' ? 'ALLOW_ADMIN_USER_PASSWORD_AUTH' : legacy === 'USER_PASSWORD_AUTH' ? 'ALLOW_USER_PASSWORD_AUTH' : 'ALLOW_CUSTOM_AUTH');
  }
  for (const flow of LOCAL_AUTH_FLOWS) flows.add(flow);
  input.ExplicitAuthFlows = [...flows] as CreateUserPoolClientCommandInput['ExplicitAuthFlows'];
  return input;
}

/**
 * Creates the pool (or finds it by name), its groups and its app clients. Returns the pool id and
 * each client's id by logical id.
 */
export async function createUserPool(endpoint: string, spec: UserPoolSpec): Promise<{ userPoolId: string; clientIds: Record<string, string> }> {
  const client = new CognitoIdentityProviderClient(clientConfig(endpoint));
  try {
    const pools = await client.send(new ListUserPoolsCommand({ MaxResults: 60 }));
    let userPoolId = pools.UserPools?.find((p) => p.Name === spec.poolName)?.Id;
    if (!userPoolId) {
      const created = await client.send(new CreateUserPoolCommand(toCreateUserPoolInput(spec.poolName, spec.properties)));
      userPoolId = created.UserPool!.Id!;
    }

    const groups = await client.send(new ListGroupsCommand({ UserPoolId: userPoolId }));
    const existingGroups = new Set((groups.Groups ?? []).map((g) => g.GroupName));
    for (const group of spec.groups) {
      if (existingGroups.has(group.name)) continue;
      const props = group.properties ?? {};
      await client.send(
        new CreateGroupCommand({
          UserPoolId: userPoolId,
          GroupName: group.name,
          ...(props.Description !== undefined ? { Description: props.Description } : {}),
          ...(props.Precedence !== undefined ? { Precedence: num(props.Precedence) } : {}),
          ...(props.RoleArn !== undefined ? { RoleArn: props.RoleArn } : {}),
        }),
      );
    }

    const listed = await client.send(new ListUserPoolClientsCommand({ UserPoolId: userPoolId, MaxResults: 60 }));
    const clientIds: Record<string, string> = {};
    for (const appClient of spec.clients) {
      const input = toCreateUserPoolClientInput(userPoolId, appClient.logicalId, appClient.properties);
      const found = listed.UserPoolClients?.find((c) => c.ClientName === input.ClientName)?.ClientId;
      clientIds[appClient.logicalId] =
        found ?? (await client.send(new CreateUserPoolClientCommand(input))).UserPoolClient!.ClientId!;
    }
    return { userPoolId, clientIds };
  } finally {
    client.destroy();
  }
}

export interface SeedUser {
  email: string;
  password: string;
  groups: string[];
  name?: string;
  /** Further attributes, e.g. { 'custom:role': 'talent' }. */
  attributes?: Record<string, string>;
}

/**
 * A confirmed user with a permanent password, in the given groups: AdminCreateUser (email as
 * username, email_verified, no invitation) + AdminSetUserPassword(Permanent) + AdminAddUserToGroup.
 * Running it again resets the password and re-adds the groups.
 */
export async function seedUser(endpoint: string, userPoolId: string, user: SeedUser): Promise<{ username: string; sub?: string }> {
  const client = new CognitoIdentityProviderClient(clientConfig(endpoint));
  try {
    const attributes = [
      { Name: 'email', Value: user.email },
      { Name: 'email_verified', Value: 'true' },
      ...(user.name ? [{ Name: 'name', Value: user.name }] : []),
      ...Object.entries(user.attributes ?? {}).map(([Name, Value]) => ({ Name, Value })),
    ];
    try {
      await client.send(
        new AdminCreateUserCommand({ UserPoolId: userPoolId, Username: user.email, UserAttributes: attributes, MessageAction: 'SUPPRESS' }),
      );
    } catch (err) {
      if ((err as Error).name !== 'UsernameExistsException') throw err;
    }
    await client.send(
      new AdminSetUserPasswordCommand({ UserPoolId: userPoolId, Username: user.email, Password: user.password, Permanent: true }),
    );
    for (const group of user.groups) {
      await client.send(new AdminAddUserToGroupCommand({ UserPoolId: userPoolId, Username: user.email, GroupName: group }));
    }
    const got = await client.send(new AdminGetUserCommand({ UserPoolId: userPoolId, Username: user.email }));
    return { username: got.Username!, sub: got.UserAttributes?.find((a) => a.Name === 'sub')?.Value };
  } finally {
    client.destroy();
  }
}

/**
 * Turns on two-factor sign-in (TOTP) for a user who has none yet, as the console's enrolment
 * does: sign in with the password, associate an authenticator, verify a code, prefer TOTP.
 * Returns the base32 secret an authenticator app (or `totpCode`) computes codes from.
 */
export async function enrolTotp(endpoint: string, clientId: string, user: { email: string; password: string }): Promise<string> {
  const client = new CognitoIdentityProviderClient(clientConfig(endpoint));
  try {
    const signedIn = await client.send(
      new InitiateAuthCommand({ AuthFlow: 'USER_PASSWORD_AUTH', ClientId: clientId, AuthParameters: { USERNAME: user.email, PASSWORD: user.password } }),
    );
    const accessToken = signedIn.AuthenticationResult?.AccessToken;
    if (!accessToken) throw new Error(`Cannot enrol ${user.email} in TOTP: sign-in answered ${signedIn.ChallengeName ?? 'no tokens'}.`);
    const { SecretCode: secret } = await client.send(new AssociateSoftwareTokenCommand({ AccessToken: accessToken }));
    if (!secret) throw new Error(`Cannot enrol ${user.email} in TOTP: no secret was issued.`);
    await client.send(new VerifySoftwareTokenCommand({ AccessToken: accessToken, UserCode: totpCode(secret), FriendlyDeviceName: 'twin' }));
    await client.send(
      new SetUserMFAPreferenceCommand({ AccessToken: accessToken, SoftwareTokenMfaSettings: { Enabled: true, PreferredMfa: true } }),
    );
    return secret;
  } finally {
    client.destroy();
  }
}
