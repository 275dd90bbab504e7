// The admin API's views of a stored application: what reviewers see, never the internal
// fields (task token, upload keys, fingerprints, index keys).
import type { ApplicationDetail, ApplicationSummary } from '../../events/founding';

/* eslint-disable @typescript-eslint/no-explicit-any -- stored items are untyped */
export type ApplicationItem = Record<string, any>;

export function toSummary(item: ApplicationItem): ApplicationSummary {
  const summary: ApplicationSummary = {
    id: item.id,
    program: item.program,
    status: item.status,
    firstName: item.firstName,
    lastName: item.lastName ?? '',
    email: item.email,
    location: item.location,
    age: item.age,
    excludedIndustries: item.excludedIndustries ?? [],
    submittedAt: item.submittedAt,
    imageCount: item.imageCount,
  };
  const optional = ['validPhotoCount', 'rejectedPhotoCount', 'confirmationEmail', 'decision', 'founding', 'royaltyPlan', 'talentId'] as const;
  for (const key of optional) if (item[key] !== undefined) (summary as any)[key] = item[key];
  return summary;
}

export function toDetail(
  item: ApplicationItem,
  history: ApplicationDetail['history'],
  photos: ApplicationDetail['photos'],
): ApplicationDetail {
  return {
    ...toSummary(item),
    phone: item.phone ?? '',
    experience: item.experience ?? '',
    interests: item.interests ?? '',
    portfolioUrl: item.portfolioUrl ?? '',
    terms: item.terms,
    photoResults: item.photoResults ?? [],
    photos,
    history,
  };
}
