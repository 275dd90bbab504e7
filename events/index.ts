export * from './product';
export * from './errors';
export * from './waitlist';
export * from './site';
export * from './accounts';
export * from './talent';
export * from './contact';
export * from './founding';
