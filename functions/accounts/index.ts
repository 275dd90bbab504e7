// What other wings may import from this one (docs/architecture.md#folders): ESLint refuses any
// other way into the wing.
export { accountStore, eraseAccountsByEmail, type Account, type AccountStore } from './store';
export { creditLedger, InsufficientCreditsError, LinkedWriteRefusedError, type CreditLedger } from './credits';
// Who the caller of a /me route is and where they stand as talent.
export {
  callerTalent,
  currentAccount,
  NO_LIKENESS_MESSAGE,
  ownChangeRule,
  requireAcceptedTalent,
  type CallerTalentDeps,
  type StandingDeps,
} from './access';
export { AccountTables, accountStores } from './caller-stores';
export { profileOf } from './profile';
