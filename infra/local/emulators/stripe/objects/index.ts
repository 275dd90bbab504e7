// Stripe's objects as the API answers them, typed with the `stripe` package's own types (only
// its types: the emulator never loads the package), so `tsc` refuses a shape that is not
// Stripe's. Each builder fills every field the type requires, with Stripe's values for what the
// emulator does not model (no tax, no discounts, no shipping, test mode). One file per area.
export * from './common';
export * from './catalog';
export * from './payments';
export * from './checkout';
export * from './billing';
export * from './connect';
export * from './identity';
