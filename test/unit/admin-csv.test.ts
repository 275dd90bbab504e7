import { csvCell, toCsv } from '../../functions/shared/csv';
import { parseCsv } from '../support/csv';

describe('waitlist CSV', () => {
  it('quotes every field and doubles quotes inside them', () => {
    expect(csvCell('plain')).toBe('"plain"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell(12)).toBe('"12"');
    expect(csvCell(undefined)).toBe('""');
  });

  it.each(['=1+1', '+SUM(A1)', '-2+3', '@cmd', '\tx', '\rx', '=HYPERLINK("http://x","y")'])(
    'guards the cell %j against running as a formula',
    (value) => {
      expect(csvCell(value)).toBe(`"'${value.replace(/"/g, '""')}"`);
    },
  );

  it('leaves cells that merely contain those characters alone, and plain negative numbers as numbers', () => {
    expect(csvCell('ann@example.com')).toBe('"ann@example.com"');
    expect(csvCell('a=b')).toBe('"a=b"');
    expect(csvCell('-3.500000')).toBe('"-3.500000"');
    expect(csvCell(-12)).toBe('"-12"');
    // Anything more than a number after the minus is still guarded.
    expect(csvCell('-3.5+1')).toBe(`"'-3.5+1"`);
    expect(csvCell('-1e3')).toBe(`"'-1e3"`);
  });

  it('parses back to the same table, with the guard as the only change', () => {
    const records = [
      { position: 1, email: 'ann@example.com', firstName: 'Ann "Annie"', signupType: 'startup', newsletter: 'yes' },
      { position: 2, email: 'bob@example.com', firstName: '=cmd|\' /C calc\'!A0', signupType: 'other', newsletter: 'no' },
      { position: 3, email: 'c@example.com', firstName: 'Line\r\nbreak, comma', signupType: undefined, newsletter: 'yes' },
    ];
    const columns = ['position', 'email', 'firstName', 'signupType', 'newsletter'] as const;
    const csv = toCsv(columns, records);
    expect(csv.startsWith('\uFEFF"position","email"')).toBe(true);
    expect(csv.endsWith('\r\n')).toBe(true);
    expect(parseCsv(csv)).toEqual([
      ['position', 'email', 'firstName', 'signupType', 'newsletter'],
      ['1', 'ann@example.com', 'Ann "Annie"', 'startup', 'yes'],
      ['2', 'bob@example.com', "'=cmd|' /C calc'!A0", 'other', 'no'],
      ['3', 'c@example.com', 'Line\r\nbreak, comma', '', 'yes'],
    ]);
  });
});
