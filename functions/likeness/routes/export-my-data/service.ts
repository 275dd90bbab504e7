import { AWAITING_CONFIRMATION } from '../../../../events/founding-values';
import { licensePath } from '../../../../events/generation-values';
import { DATA_EXPORTS_PER_HOUR } from '../../../../events/royalty-values';
import type { DataExport } from '../../../../events/likeness';
import { currentAccount, profileOf, requireAcceptedTalent, type AccountStore, type StandingDeps } from '../../../accounts';
import { likenessStatusOf } from '../../controls';
import type { AccountCaller } from '../../../shared/auth';
import type { RateLimiter, RateRule } from '../../../shared/rate-limit';
import { statementDetailOf, type RoyaltyStore, type StoredAccrual } from '../../../royalties';
import type { FoundingStore, StoredApplication } from '../../../founding';
import type { GenerationStore } from '../../../generation';
import type { TalentStore } from '../../../catalog';
import type { TrainingRecord } from '../../../training';

export interface DataExportDeps {
  accounts: Pick<AccountStore, 'get' | 'create'>;
  standing: StandingDeps;
  founding: Pick<FoundingStore, 'getApplication'>;
  talent: Pick<TalentStore, 'getForGeneration'>;
  royalties: Pick<RoyaltyStore, 'openAccruals' | 'claimedAccruals' | 'listStatements' | 'claimedTakenBack' | 'claimedGivenBack'>;
  generations: Pick<GenerationStore, 'getLicense'>;
  /** The talent's trainings of their likeness model, oldest first. */
  trainings: { listTrainings(talentId: string): Promise<TrainingRecord[]> };
  siteUrl: string;
  limit: RateLimiter;
  now: () => Date;
}

/** The per-account limit on data exports (each reads everything we hold about the talent). */
const dataExportRule = (accountId: string): RateRule => ({
  name: 'data-export.account',
  subject: accountId,
  limit: DATA_EXPORTS_PER_HOUR,
  windowSeconds: 60 * 60,
  message: `You have downloaded your data ${DATA_EXPORTS_PER_HOUR} times in the last hour. Please wait a while and try again.`,
});

/**
 * The application's answers as the applicant gave them, and what we recorded of the decision;
 * never the photos' storage keys, upload session, tokens or the review's internals.
 */
const APPLICATION_FIELDS = [
  'program',
  'firstName',
  'lastName',
  'email',
  'phone',
  'location',
  'experience',
  'interests',
  'portfolioUrl',
  'age',
  'excludedIndustries',
  'confirmedAt',
  'founding',
  'spotNumber',
  'royaltyPlan',
  'talentId',
  'invitedAt',
  'photosDeletedAt',
] as const;

function applicationOf(app: StoredApplication): NonNullable<DataExport['application']> {
  const stored = app as StoredApplication & Record<string, unknown>;
  const fields: Record<string, unknown> = Object.fromEntries(APPLICATION_FIELDS.filter((f) => stored[f] !== undefined).map((f) => [f, stored[f]]));
  // The consent record stays as it was given; its withdrawal is a field of its own (docs/identity.md, "Withdrawal").
  if (app.identity?.faceConsentWithdrawnAt) fields.faceConsentWithdrawnAt = app.identity.faceConsentWithdrawnAt;
  return {
    id: app.id,
    // Only accepted talent export; an unconfirmed application never reaches here.
    status: app.status === AWAITING_CONFIRMATION ? 'validating' : app.status,
    submittedAt: app.submittedAt,
    fields,
    photoCount: app.validPhotoCount ?? app.imageCount ?? app.imagePaths.length,
    ...(app.identity?.consent ? { consent: app.identity.consent } : {}),
  };
}

/**
 * A training as the talent's export shows it: what and when, and the version's id on Replicate;
 * never the model's name, the trigger word, the files, samples, links or the workflow's internals.
 */
function trainingOf(t: TrainingRecord): DataExport['trainings'][number] {
  return {
    number: t.number,
    status: t.status,
    ...(t.version ? { version: t.version } : {}),
    createdAt: t.createdAt,
    ...(t.completedAt ? { completedAt: t.completedAt } : {}),
    ...(t.approvedAt ? { approvedAt: t.approvedAt } : {}),
    ...(t.deletedAt ? { deletedAt: t.deletedAt } : {}),
  };
}

/** The month far enough ahead that every accrual is at or before it. */
const LAST_MONTH = '9999-12';

/**
 * `GET /me/data-export`: everything we hold about the talent as one JSON document: profile,
 * application (answers, photos by count), likeness controls, the trainings of their likeness
 * model (number, status, version, dates), every license of their likeness
 * (its id, date, licensee and public page; never the client's prompt) and every statement with
 * its lines.
 */
export async function exportMyData(deps: DataExportDeps, caller: AccountCaller): Promise<DataExport> {
  // The account's id is the caller's `sub`.
  await deps.limit([dataExportRule(caller.sub)]);
  const account = await currentAccount(deps.accounts, caller);
  const standing = await requireAcceptedTalent(deps.standing, caller);
  const now = deps.now();
  const application = standing.application ? applicationOf(await deps.founding.getApplication(standing.application.id)) : undefined;
  const talentId = standing.likeness?.talentId;
  const found = talentId ? await deps.talent.getForGeneration(talentId) : undefined;
  const trainings = talentId ? (await deps.trainings.listTrainings(talentId)).map(trainingOf) : [];
  let licenses: DataExport['licenses'] = [];
  let statements: DataExport['statements'] = [];
  if (standing.likeness && found) {
    const plan = found.talent.royaltyPlan;
    const [records, open] = await Promise.all([deps.royalties.listStatements(found.talent.id), deps.royalties.openAccruals(found.talent.id, LAST_MONTH, plan)]);
    const claimed = await Promise.all(records.map((r) => deps.royalties.claimedAccruals(found.talent.id, r.month, r.fromMonth, plan)));
    const takenBack = await Promise.all(records.map((r) => deps.royalties.claimedTakenBack(found.talent.id, r.month)));
    const givenBack = await Promise.all(records.map((r) => deps.royalties.claimedGivenBack(found.talent.id, r.month)));
    statements = records.map((r, i) => statementDetailOf(r, claimed[i]!, takenBack[i]!, givenBack[i]!));
    const accruals: StoredAccrual[] = [...claimed.flat(), ...open].sort((a, b) => a.at.localeCompare(b.at) || a.licenseId.localeCompare(b.licenseId));
    licenses = await Promise.all(
      accruals.map(async (a) => {
        const license = await deps.generations.getLicense(a.licenseId);
        return {
          licenseId: a.licenseId,
          issuedAt: license?.issuedAt ?? a.at,
          licensee: license?.licensee ?? '',
          url: `${deps.siteUrl.replace(/\/$/, '')}${licensePath(a.licenseId)}`,
        };
      }),
    );
  }
  return {
    exportedAt: now.toISOString(),
    profile: profileOf(account),
    ...(application ? { application } : {}),
    ...(standing.likeness && found ? { likeness: likenessStatusOf({ ...standing.likeness, founding: found.talent.founding }, found.controls, now) } : {}),
    trainings,
    licenses,
    statements,
  };
}

/** The download's file name: `humanly-data-2026-11-25.json`. */
export const dataExportFilename = (now: Date) => `humanly-data-${now.toISOString().slice(0, 10)}.json`;
