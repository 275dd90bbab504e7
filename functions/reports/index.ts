// What other wings may import from this one (docs/architecture.md#folders): ESLint refuses any
// other way into the wing.
export { reportStore, type ReportStore } from './store';
export { reportStats } from './views';
