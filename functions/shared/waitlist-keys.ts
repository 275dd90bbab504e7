/** Key layout of the waitlist table, shared by the functions that read or write it. */
export const COUNTER_KEY = 'COUNTER#waitlist';
export const LIST_PARTITION = 'WAITLIST';
export const signupKey = (email: string) => `SIGNUP#${email}`;
