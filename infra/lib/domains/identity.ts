import { Duration, NestedStack, Size, type Stack } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { FOUNDING_IDENTITY_CHECK_REQUESTED, PENDING_PREFIX } from '../../../events/founding';
import { LIKENESS_REMOVED } from '../../../events/likeness-events';
import { AppFunction } from '../platform/app-function';
import { consumeEvents } from '../platform/event-rules';
import type { Platform } from '../platform/platform';

export interface IdentityProps {
  /** The founding applications: their proof of person is stored on them. */
  applicationsTable: ITable;
  /** The private photos bucket: the selfie, the sealed face analyses and replacement photos live under each application's prefix. */
  photosBucket: IBucket;
  /** The FoundingApplication state machine, whose AwaitIdentity step the face checks resume. */
  workflowArn: string;
}

/** The face analysis library and its native image decoder, installed beside the bundle (docs/identity.md "Lambda"). */
const FACES_MODULES = ['@vladmandic/human', '@tensorflow/tfjs', '@tensorflow/tfjs-backend-wasm', 'sharp'];

/**
 * The proof of person (functions/founding/identity, docs/identity.md, DESIGN.md "Identity"): the
 * applicant's routes reached with the identity token, the live selfie's analysis, and the
 * check-faces trigger that analyses the photos, asks for replacements and resumes the review
 * workflow. The founding wing's code; a nested stack of its own (decision 032): the main stack
 * has no room for it.
 */
export class Identity extends NestedStack {
  /** Encrypts face analyses (biometric data) before they are stored. */
  readonly key: Secret;

  constructor(scope: Stack, id: string, platform: Platform, props: IdentityProps) {
    super(scope, id, { description: 'Proof of person: consent, live selfie and face checks of founding applications' });
    const { api, bus, email, rateLimits } = platform;
    const { applicationsTable: table, photosBucket: bucket } = props;
    this.key = new Secret(this, 'IdentityKey', {
      description: "Encrypts applicants' face analyses (biometric data) before they are stored",
      generateSecretString: { excludePunctuation: true, passwordLength: 64 },
    });
    const identityObjects = bucket.arnForObjects('applications/*/identity/*');
    // Withdrawing the face data consent deletes the selfie and the sealed analyses (docs/identity.md, "Withdrawal").
    const deleteFaceData = (fn: AppFunction) => {
      fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:DeleteObject'], resources: [identityObjects] }));
      fn.addToRolePolicy(new PolicyStatement({ actions: ['s3:ListBucket'], resources: [bucket.bucketArn], conditions: { StringLike: { 's3:prefix': ['applications/*/identity/*'] } } }));
    };

    const applicant = new AppFunction(this, 'ApplicantIdentity', {
      entry: 'functions/founding/routes/applicant-identity/handler.ts',
      description: "POST /founding-identity*: the applicant's consent and its withdrawal, selfie upload and replacement photos, by identity token",
    })
      .bindTable(table, 'APPLICATIONS_TABLE', ['GetItem', 'UpdateItem', 'PutItem'], { indexes: false })
      // Thumbnails signed for the replace page; presigned PUTs only under the identity prefix.
      .bindBucketObjects(bucket, 'PHOTOS_BUCKET', ['GetObject'], 'applications/*')
      .bindBus(bus);
    applicant.addToRolePolicy(new PolicyStatement({ actions: ['s3:PutObject'], resources: [identityObjects] }));
    deleteFaceData(applicant);
    rateLimits.bind(applicant);
    for (const path of ['', '/consent', '/withdraw-consent', '/selfie-upload', '/replacement-uploads', '/replacements']) api.route(`POST /founding-identity${path}`, applicant, 'public');

    // The talent portal: the face data consent of the application the account came from, and its withdrawal.
    const faceData = new AppFunction(this, 'MyFaceData', {
      entry: 'functions/founding/routes/my-face-data/handler.ts',
      description: "GET /me/face-data and POST /me/face-data/withdraw: a talent's face data consent and its withdrawal",
    })
      .bindTable(table, 'APPLICATIONS_TABLE', ['GetItem', 'UpdateItem', 'PutItem'], { indexes: false })
      .bindBus(bus);
    faceData.addEnvironment('PHOTOS_BUCKET', bucket.bucketName);
    deleteFaceData(faceData);
    rateLimits.bind(faceData);
    api.route('GET /me/face-data', faceData, 'talent');
    api.route('POST /me/face-data/withdraw', faceData, 'talent');

    const selfie = new AppFunction(this, 'SubmitSelfie', {
      entry: 'functions/founding/routes/submit-selfie/handler.ts',
      description: 'POST /founding-identity/selfie: analyses the live selfie and matches it with the photo set',
      memorySize: 2048,
      timeout: Duration.seconds(29),
      nodeModules: FACES_MODULES,
      environment: { IDENTITY_KEY_SECRET: this.key.secretArn },
    })
      .bindTable(table, 'APPLICATIONS_TABLE', ['GetItem', 'UpdateItem', 'PutItem'], { indexes: false })
      .bindBucketObjects(bucket, 'PHOTOS_BUCKET', ['GetObject'], 'applications/*');
    selfie.addToRolePolicy(new PolicyStatement({ actions: ['s3:PutObject'], resources: [identityObjects] }));
    // A selfie analysed while the consent was withdrawn is deleted with the rest of the face data.
    deleteFaceData(selfie);
    this.key.grantRead(selfie);
    rateLimits.bind(selfie);
    api.route('POST /founding-identity/selfie', selfie, 'public');

    const check = new AppFunction(this, 'CheckFaces', {
      entry: 'functions/founding/triggers/check-faces/handler.ts',
      description: "Checks the faces of an application's photos (and replacements), emails what to replace, resumes the review",
      memorySize: 3008,
      timeout: Duration.minutes(10),
      ephemeralStorageSize: Size.mebibytes(1024),
      nodeModules: FACES_MODULES,
      environment: { IDENTITY_KEY_SECRET: this.key.secretArn },
    })
      .bindTable(table, 'APPLICATIONS_TABLE', ['GetItem', 'UpdateItem', 'PutItem'], { indexes: false })
      .bindBucketObjects(bucket, 'PHOTOS_BUCKET', ['GetObject', 'PutObject', 'DeleteObject'], 'applications/*')
      .bindEmail(email);
    this.key.grantRead(check);
    check.addToRolePolicy(new PolicyStatement({ actions: ['states:SendTaskSuccess'], resources: [props.workflowArn] }));
    consumeEvents(this, 'OnIdentityCheckRequested', { bus, detailType: FOUNDING_IDENTITY_CHECK_REQUESTED, consumer: check, consequence: 'the face checks of the application' });

    // A likeness removal carried out: the application the talent came from loses its photos and
    // face data, everything under its prefix (and any original upload still pending), with
    // photosDeletedAt and a history line on the application.
    const deletePhotos = new AppFunction(this, 'DeleteRemovedLikenessPhotos', {
      entry: 'functions/founding/triggers/delete-removed-likeness-photos/handler.ts',
      description: "Likeness.Removed: deletes the photos, selfie and face analyses of the talent's founding application",
      timeout: Duration.seconds(60),
    })
      .bindTable(table, 'APPLICATIONS_TABLE', ['GetItem', 'UpdateItem', 'PutItem', 'ConditionCheckItem'], { indexes: false })
      .bindBucketObjects(bucket, 'PHOTOS_BUCKET', ['DeleteObject'], 'applications/*', { listPrefix: 'applications/' });
    deletePhotos.addToRolePolicy(new PolicyStatement({ actions: ['s3:DeleteObject'], resources: [bucket.arnForObjects(`${PENDING_PREFIX}*`)] }));
    consumeEvents(this, 'OnLikenessRemovedPhotos', { bus, detailType: LIKENESS_REMOVED, consumer: deletePhotos, consequence: "the talent's application photos and face data deleted" });
  }
}
