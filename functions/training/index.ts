// What other wings may import from this one (docs/architecture.md#folders): ESLint refuses any
// other way into the wing.
// Removal and erasure of a talent's likeness model: its versions on Replicate and its files.
export { removeLikenessModel } from './removal';
// The talent's trainings, for the data export (likeness) and the console's erasure.
export { trainingStore, type TrainingRecord } from './store';
