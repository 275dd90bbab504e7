/**
 * Names the CDK app gives and the functions use: table indexes, object key prefixes and the
 * origin-verify header. The stack (infra/lib) and the functions both import them from here, so
 * neither imports the other.
 */

/** Accounts table: the index that finds an account by its (lowercased) email. */
export const ACCOUNTS_EMAIL_INDEX = 'byEmail';
/** Accounts table: the index the console lists accounts from, every profile under one key, newest first. */
export const ACCOUNTS_LIST_INDEX = 'byCreated';

/** Generations table: a client's generations, newest first (`accountKey` = ACCOUNT#{id}, sort `createdAt`). */
export const GENERATIONS_ACCOUNT_INDEX = 'byAccount';
/** Generations table: every generation under one key, newest first (the console's list; `listKey` = GENERATION). */
export const GENERATIONS_CREATED_INDEX = 'byCreated';
/** Delivered files live under this prefix of the images bucket: `generations/<accountId>/<generationId>/<licenseId>.png`. */
export const GENERATION_IMAGES_PREFIX = 'generations/';

/**
 * Environment variable holding the origin-verify secret: the header value the API's CloudFront
 * distribution adds to every request it forwards (infra/lib/platform/http-api.ts, edge.ts).
 */
export const ORIGIN_VERIFY_ENV = 'ORIGIN_VERIFY';
/** The header carrying it. */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';

/** Payments: a client's payments and subscription, newest first (`accountKey`, `at`). */
export const PAYMENTS_ACCOUNT_INDEX = 'byAccount';
/** Payments: one list per kind and month (`listKey`, `at`): a month's payments, every subscription, flagged accounts. */
export const PAYMENTS_LIST_INDEX = 'byList';
