import sharp from 'sharp';
import { licenseXmp } from '../../../functions/generation/steps/deliver-images/xmp';

// XML 1.0's `Char` production: what a well-formed packet may contain, and nothing else.
const XML_CHAR = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;

const license = (talentName: string) => ({
  licenseId: 'lic_abcdefghijklmnopqrstuv',
  talentId: 'zoe-ng',
  talentName,
  licenseUrl: 'https://humanly.example/licenses/lic_abcdefghijklmnopqrstuv',
});

describe('the license XMP with names XML cannot hold', () => {
  // Control characters (NUL, backspace, escape, unit separator), a lone high and a lone low
  // surrogate, and the two noncharacters U+FFFE and U+FFFF, between the letters of a real name.
  const hostile = 'Zo\u0000ë\u0008 \u001bN\uD800g\u0001 \uDC00🙂\uFFFE Studio\uFFFF\u001f';

  it('leaves out every character XML 1.0 forbids, and keeps the rest of the name, emoji included', () => {
    const xmp = licenseXmp(license(hostile));
    expect(XML_CHAR.test(xmp)).toBe(true);
    expect(xmp).toContain('humanly:TalentName="Zoë Ng 🙂 Studio"');
    expect(xmp).toContain('Licensed image of Zoë Ng 🙂 Studio, license lic_abcdefghijklmnopqrstuv.');
  });

  it('each forbidden character alone is removed; tab, newline and the edges of the allowed ranges stay', () => {
    for (const bad of ['\u0000', '\u0007', '\u000b', '\u000c', '\u001f', '\uD83D', '\uDE42', '\uFFFE', '\uFFFF']) {
      const xmp = licenseXmp(license(`A${bad}B`));
      expect({ bad: bad.codePointAt(0)!.toString(16), valid: XML_CHAR.test(xmp) }).toEqual({ bad: bad.codePointAt(0)!.toString(16), valid: true });
      expect(xmp).toContain('humanly:TalentName="AB"');
    }
    expect(licenseXmp(license('A\tB\nC\u0020\uD7FF\uE000\uFFFD\u{10FFFF}'))).toContain('humanly:TalentName="A\tB\nC \uD7FF\uE000\uFFFD\u{10FFFF}"');
  });

  it('the cleaned packet goes into a PNG and reads back with the name', async () => {
    const image = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#369' } }).png().toBuffer();
    const png = await sharp(image).png().withXmp(licenseXmp(license(hostile))).toBuffer();
    const read = (await sharp(png).metadata()).xmp!.toString('utf8');
    expect(read).toContain('humanly:TalentName="Zoë Ng 🙂 Studio"');
    expect(XML_CHAR.test(read)).toBe(true);
  });
});
