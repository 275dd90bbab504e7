import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { foundingStore } from '../../functions/founding/store';
import { foundingKeys, newApplicationId } from '../../functions/founding/keys';
import { updateExpression } from '../../functions/shared/store';
import { talentStore } from '../../functions/catalog/store';
import { talentFactory } from './talent';
import { documentClient, type TestTwin } from './twin';

export interface AcceptedTalent {
  applicationId: string;
  talentId: string;
  submittedAt: string;
}

/**
 * Sets fields of a stored application straight in the twin's table: a test's starting state that
 * no product write makes at once (photos validated without the workflow, a proof of person done).
 */
export async function setApplicationFields(twin: Pick<TestTwin, 'urls' | 'physicalName'>, applicationId: string, fields: Record<string, unknown>): Promise<void> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  await documentClient(twin).send(
    new UpdateCommand({
      TableName: twin.physicalName('FoundingApplicationsTable'),
      Key: foundingKeys.application(applicationId),
      UpdateExpression: updateExpression(fields, names, values),
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    }),
  );
}

/**
 * What a reviewer's acceptance leaves behind, written straight into the twin's tables: a hidden
 * catalog talent and an accepted application under `email` that names it. An account signed up
 * (or seeded) with that confirmed email has talent access.
 */
export async function createAcceptedTalent(
  twin: Pick<TestTwin, 'urls' | 'physicalName'>,
  opts: {
    email: string;
    talentId: string;
    firstName: string;
    lastName: string;
    founding: boolean;
    marker: string;
    /** The catalog talent names the application it came from, as the acceptance's create-talent step writes it. */
    linked?: boolean;
  },
): Promise<AcceptedTalent> {
  const doc = documentClient(twin);
  const royaltyPlan = opts.founding ? ('founding-35' as const) : ('standard-tiers' as const);
  const applicationId = newApplicationId();
  const created = await talentStore(doc, twin.physicalName('CatalogTalentTable')).create(
    talentFactory({
      id: opts.talentId,
      name: `${opts.firstName} ${opts.lastName}`,
      tagline: 'Accepted, not listed yet',
      bio: 'Hidden until the profile is ready.',
      generationCount: 0,
      tags: [],
      samples: [],
      founding: opts.founding,
      royaltyPlan,
      status: 'hidden',
    }) as Parameters<ReturnType<typeof talentStore>['create']>[0],
    undefined,
    opts.linked ? { applicationId } : {},
  );
  if (!created) throw new Error(`the catalog talent ${opts.talentId} was not stored`);
  const submittedAt = new Date().toISOString();
  const stored = await foundingStore(doc, twin.physicalName('FoundingApplicationsTable')).createApplication(
    {
      id: applicationId,
      program: opts.founding ? 'founding' : 'standard',
      status: 'accepted',
      firstName: opts.firstName,
      lastName: opts.lastName,
      email: opts.email,
      phone: '',
      location: 'Lisbon',
      age: 30,
      experience: 'Portraits',
      interests: '',
      portfolioUrl: '',
      excludedIndustries: [],
      terms: { accepted: true, acceptedAt: submittedAt },
      submittedAt,
      imageCount: 0,
      uploadedFilesCount: 0,
      imagePaths: [],
      uploads: [],
      photoResults: [],
      validPhotoCount: 0,
      rejectedPhotoCount: 0,
      validatedAt: submittedAt,
      decision: { decision: 'accept', decidedBy: 'reviewer@people.example', decidedAt: submittedAt, note: '' },
      founding: opts.founding,
      royaltyPlan,
      talentId: opts.talentId,
    },
    { applicationId, fingerprint: opts.marker, submittedAt, response: { success: true, applicationId } },
  );
  if (!stored) throw new Error('the accepted application was not stored');
  return { applicationId, talentId: opts.talentId, submittedAt };
}
