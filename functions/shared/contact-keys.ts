/** Key layout of the messages table, shared by the functions that read or write it. */
export const messageKey = (id: string) => `MESSAGE#${id}`;
/** One counter per sender address per UTC day (the item expires two days later). */
export const senderDayKey = (email: string, day: string) => `LIMIT#${email}#${day}`;
