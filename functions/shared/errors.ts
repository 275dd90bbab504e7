/**
 * Typed domain errors. Services throw these; `http.ts` maps them to status codes in one place.
 */
export class AppError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends AppError {
  constructor(message: string, fields?: Record<string, string>) {
    super(message, 400, fields);
  }
}
export class UnauthorizedError extends AppError {
  constructor(message = 'Sign in to continue.') {
    super(message, 401);
  }
}
export class ForbiddenError extends AppError {
  constructor(message = 'You do not have access to this.') {
    super(message, 403);
  }
}
export class NotFoundError extends AppError {
  constructor(message = 'Not found.') {
    super(message, 404);
  }
}
export class ConflictError extends AppError {
  constructor(message: string) {
    super(message, 409);
  }
}
export class TooManyRequestsError extends AppError {
  constructor(message: string) {
    super(message, 429);
  }
}
export class PayloadTooLargeError extends AppError {
  constructor(message: string) {
    super(message, 413);
  }
}
export class UnsupportedMediaTypeError extends AppError {
  constructor(message: string) {
    super(message, 415);
  }
}
export class UnprocessableError extends AppError {
  constructor(message: string) {
    super(message, 422);
  }
}

/**
 * DynamoDB's refusal of a write whose condition does not hold: a single write's
 * `ConditionalCheckFailedException`, or a transaction cancelled because one of its conditions
 * did not hold (a `ConditionalCheckFailed` reason; a transaction cancelled only by a conflict is
 * not one). Told by the error's name and reasons, never its message. It lives here, not beside
 * the idempotency utility, so a function that only writes conditionally does not bundle Powertools.
 */
export const isConditionFailure = (err: unknown): boolean =>
  (err as Error | undefined)?.name === 'ConditionalCheckFailedException' || (cancellationReasons(err)?.includes('ConditionalCheckFailed') ?? false);

/**
 * The reason codes of a cancelled DynamoDB transaction, one per item in order
 * (`ConditionalCheckFailed`, `None`, ...); undefined when the error is not a cancelled transaction.
 */
export function cancellationReasons(err: unknown): (string | undefined)[] | undefined {
  const e = err as { name?: string; CancellationReasons?: Array<{ Code?: string }> } | undefined;
  return e?.name === 'TransactionCanceledException' ? (e.CancellationReasons ?? []).map((r) => r?.Code) : undefined;
}
