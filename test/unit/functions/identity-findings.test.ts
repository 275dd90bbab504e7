// The verified identity's two findings (docs/identity.md, "Verified identity"): the name rule and
// the age rule, on the cases a reviewer would argue about.
import { ageFinding, nameFinding, nameWords } from '../../../functions/founding/identity/findings';

const applied = (firstName: string, lastName?: string) => ({ firstName, lastName });
const verified = (firstName: string | null, lastName: string | null) => ({ firstName, lastName });

describe('name rule', () => {
  it('reads accents, case, hyphens and apostrophes as the same letters', () => {
    expect(nameWords(' Zoë  Núñez-García ')).toEqual(['zoe', 'nunez', 'garcia']);
    expect(nameWords("Seán O'Brien")).toEqual(['sean', 'obrien']);
  });

  it('matches the same name, saying when only accents or hyphens differ', () => {
    expect(nameFinding(applied('Ines', 'Vale'), verified('INES', 'VALE'))).toMatchObject({ result: 'match', note: 'same name' });
    expect(nameFinding(applied('Ines', 'Vale'), verified('Inês', 'Vale'))).toMatchObject({ result: 'match', note: 'same name, accents, hyphens or punctuation aside' });
    expect(nameFinding(applied('Anne Marie', 'Dupont'), verified('Anne-Marie', 'Dupont'))).toMatchObject({ result: 'match' });
    expect(nameFinding(applied('Maya', 'Chen-Lopez'), verified('Maya', 'Chen Lopez'))).toMatchObject({ result: 'match' });
  });

  it('matches first and last name in another order', () => {
    expect(nameFinding(applied('Wei', 'Chen'), verified('Chen', 'Wei'))).toMatchObject({ result: 'match', note: 'first and last name in another order' });
  });

  it('matches a middle name on either side when first and last names agree', () => {
    expect(nameFinding(applied('Maya', 'Chen'), verified('Maya Lin', 'Chen'))).toMatchObject({ result: 'match', note: 'same name with a middle name on the document', verified: 'Maya Lin Chen', applied: 'Maya Chen' });
    expect(nameFinding(applied('Maya Lin', 'Chen'), verified('Maya', 'Chen'))).toMatchObject({ result: 'match', note: 'same name with a middle name on the application' });
  });

  it('names which part differs otherwise', () => {
    expect(nameFinding(applied('Maya', 'Chen'), verified('Maya', 'Smith'))).toMatchObject({ result: 'mismatch', note: 'the last name differs' });
    expect(nameFinding(applied('Maya', 'Chen'), verified('Mia', 'Chen'))).toMatchObject({ result: 'mismatch', note: 'the first name differs' });
    expect(nameFinding(applied('Maya', 'Chen'), verified('Jordan', 'Smith'))).toMatchObject({ result: 'mismatch', note: 'the names differ' });
    // Only part of a double last name is not the same name: the reviewer decides.
    expect(nameFinding(applied('Lucia', 'Garcia'), verified('Lucia', 'Garcia-Lopez'))).toMatchObject({ result: 'mismatch', note: 'the last name differs' });
    expect(nameFinding(applied('Maya', 'Chen'), verified(null, null))).toMatchObject({ result: 'mismatch', note: 'the document gave no name' });
  });
});

describe('age rule', () => {
  it('is 18+ from the 18th birthday on, under 18 the day before', () => {
    expect(ageFinding({ day: 2, month: 12, year: 2008 }, '2026-12-02')).toEqual({ result: '18+', checkedOn: '2026-12-02' });
    expect(ageFinding({ day: 2, month: 12, year: 2008 }, '2026-12-01')).toEqual({ result: 'under-18', checkedOn: '2026-12-01' });
    expect(ageFinding({ day: 31, month: 1, year: 1990 }, '2026-11-29')).toMatchObject({ result: '18+' });
    expect(ageFinding({ day: 1, month: 1, year: 2010 }, '2026-11-29')).toMatchObject({ result: 'under-18' });
  });

  it('makes someone born on 29 February 18 on 1 March of a year without one, and on 29 February in a leap year', () => {
    expect(ageFinding({ day: 29, month: 2, year: 2008 }, '2026-02-28')).toMatchObject({ result: 'under-18' });
    expect(ageFinding({ day: 29, month: 2, year: 2008 }, '2026-03-01')).toMatchObject({ result: '18+' });
    expect(ageFinding({ day: 29, month: 2, year: 2010 }, '2028-02-28')).toMatchObject({ result: 'under-18' });
    expect(ageFinding({ day: 29, month: 2, year: 2010 }, '2028-02-29')).toMatchObject({ result: '18+' });
  });

  it('proves nothing without a whole date', () => {
    expect(ageFinding({ day: null, month: 2, year: 2000 }, '2026-11-29')).toBeUndefined();
    expect(ageFinding(null, '2026-11-29')).toBeUndefined();
  });
});
