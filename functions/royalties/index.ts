// What other wings may import from this one (docs/architecture.md#folders): ESLint refuses any
// other way into the wing.
export { royaltyStore, type EndedContract, type RoyaltyStore, type StoredAccrual } from './store';
export { eraseTalentPayouts } from './store';
export { statementDetailOf } from './statement-views';
export { latestClosedMonth } from './statement-selection';
