/**
 * CSV for spreadsheets (RFC 4180): every field quoted, quotes doubled, CRLF between rows.
 * A cell that starts with = + - @ tab or carriage return is prefixed with ' so a spreadsheet
 * shows it as text instead of running it as a formula (OWASP's CSV injection guidance); a
 * plain negative number (`-3.500000`) is no formula and stays a number.
 * Small enough to keep by hand: the one thing a library would add here is the guard, which
 * the common ones leave to the caller.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEGATIVE_NUMBER = /^-\d+(\.\d+)?$/;

export type CsvValue = string | number | boolean | null | undefined;

export function csvCell(value: CsvValue): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (FORMULA_START.test(text) && !NEGATIVE_NUMBER.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

function csvRow(values: readonly CsvValue[]): string {
  return values.map(csvCell).join(',');
}

/**
 * A header row and one row per record, columns in the given order. Starts with a UTF-8 byte
 * order mark so spreadsheet programs read accented names correctly.
 */
export function toCsv<T extends Record<string, unknown>>(columns: readonly (keyof T & string)[], records: readonly T[]): string {
  const lines = [csvRow(columns), ...records.map((r) => csvRow(columns.map((c) => r[c] as CsvValue)))];
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}
