// What other wings may import from this one (docs/architecture.md#folders): ESLint refuses any
// other way into the wing.
export { erasePaymentsOf, type PaymentsErased } from './erasure';
export { paymentsStore } from './store';
