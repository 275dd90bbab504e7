/** Product facts shared by the site, the console and the functions (docs/product.md#brand). */
export const PRODUCT_NAME = 'Humanly';
/** Early-access waitlist capacity when a stage does not configure one. */
export const DEFAULT_WAITLIST_CAPACITY = 200;
/** Source of every event our functions put on the bus. */
export const EVENT_SOURCE = 'humanly.marketplace';
