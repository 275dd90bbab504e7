// What other wings may import from this one (docs/architecture.md#folders): ESLint refuses any
// other way into the wing.
export { generationStore, type GenerationStore } from './store';
// Erasure of a client's generations, licenses and files (decision 035).
export { findClientGenerations, keepLicensePixelHash, redactGeneration, redactLicense, type ClientGenerations } from './store';
export { eraseClientGenerations, GenerationRunningError, refuseWhileRunning } from './license-files';
// Statements, accruals and payout details live in the Generations table.
export { CREATED_INDEX, generationKeys } from './keys';
// Replicate's webhook signature check (Standard Webhooks), for the training wing's webhook too.
