// Keys of the Generations table (docs/generation.md, decision 027): generations, their licenses,
// webhook replay guards, and per talent the monthly usage counters and royalty accruals.

/** A client's generations, newest first: `accountKey` = ACCOUNT#{id}, sort `createdAt`. */
export const ACCOUNT_INDEX = 'byAccount';
/** Every generation under one key, newest first (the console's list): `listKey` = GENERATION. */
export const CREATED_INDEX = 'byCreated';
export const LIST_PARTITION = 'GENERATION';

export const generationKeys = {
  generation: (id: string) => ({ pk: `GEN#${id}`, sk: 'GEN' }),
  license: (id: string) => ({ pk: `LIC#${id}`, sk: 'LIC' }),
  /** A webhook delivery already applied (Replicate's `webhook-id`), kept a day. */
  webhook: (webhookId: string) => ({ pk: `WEBHOOK#${webhookId}`, sk: 'WEBHOOK' }),
  talent: (talentId: string) => `TALENT#${talentId}`,
  /** Images made with a talent's likeness in a UTC month (`YYYY-MM`). */
  usage: (talentId: string, month: string) => ({ pk: `TALENT#${talentId}`, sk: `USAGE#${month}` }),
  usagePrefix: 'USAGE#',
  /** One royalty accrual per license, by month: the royalties issue totals them. */
  accrual: (talentId: string, month: string, licenseId: string) => ({ pk: `TALENT#${talentId}`, sk: `ACCRUAL#${month}#${licenseId}` }),
  accrualPrefix: 'ACCRUAL#',
  accountKey: (accountId: string) => `ACCOUNT#${accountId}`,
};

/** Delivered files live under this prefix of the images bucket: `generations/<accountId>/<generationId>/<licenseId>.png`. */
export const GENERATION_IMAGES_PREFIX = 'generations/';

/** `YYYY-MM` of an ISO time, in UTC. */
export const monthOf = (iso: string) => iso.slice(0, 7);
