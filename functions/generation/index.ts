// What other wings may import from this one (docs/architecture.md#folders): ESLint refuses any
// other way into the wing.
export { generationStore, type GenerationStore } from './store';
// Statements, accruals and payout details live in the Generations table.
export { CREATED_INDEX, generationKeys } from './keys';
