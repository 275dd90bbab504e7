// What other wings may import from this one (docs/architecture.md#folders): ESLint refuses any
// other way into the wing.
export {
  ApplicationBeingValidatedError,
  ApplicationNotFoundError,
  eraseFoundingItems,
  planFoundingErasure,
  foundingStore,
  type EmailLock,
  type FoundingErasure,
  type FoundingErasurePlan,
  type FoundingStore,
  type StoredApplication,
} from './store';
export { applicationPrefix, pendingPrefix } from './keys';
export { redactVerificationSessions, VerificationStillProcessingError } from './identity/redaction';
export { nameFinding } from './identity/findings';
