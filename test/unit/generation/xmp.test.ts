import sharp from 'sharp';
import { deflateSync } from 'node:zlib';
import { licenseIdInMetadata } from '../../../functions/reports/matching/metadata';
import { licenseInFile } from '../../../web/src/generation/xmp';
import { pngWithXmp } from '../../../functions/generation/steps/deliver-images/png';
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

describe('the XMP written into a PNG output without encoding it again', () => {
  const xmp = licenseXmp(license('Zoë Ng'));
  /** A model's output: noise, so the pixels tell a re-encoding apart from the same image. */
  const output = () => {
    const raw = Buffer.alloc(32 * 24 * 3);
    for (let i = 0; i < raw.length; i++) raw[i] = (i * 2654435761) >>> 24;
    return sharp(raw, { raw: { width: 32, height: 24, channels: 3 } }).png().withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/">the host\'s</x:xmpmeta>').toBuffer();
  };
  const chunkTypes = (png: Buffer) => {
    const types: string[] = [];
    for (let at = 8; at < png.length; at += 12 + png.readUInt32BE(at)) types.push(png.subarray(at + 4, at + 8).toString('latin1'));
    return types;
  };

  it('reads back as the license XMP alone, with the same pixels and the same image data', async () => {
    const file = await output();
    const png = pngWithXmp(file, xmp)!;
    expect((await sharp(png).metadata()).xmp!.toString('utf8')).toBe(xmp);
    expect((await sharp(png).raw().toBuffer()).equals(await sharp(file).raw().toBuffer())).toBe(true);
    // The host's XMP (sharp writes it compressed, in zTXt) is gone, ours (uncompressed iTXt, as
    // XMP's specification asks) follows the header, the compressed pixels are the output's bytes.
    expect(chunkTypes(file)).toEqual(['IHDR', 'pHYs', 'zTXt', 'IDAT', 'IEND']);
    expect(chunkTypes(png)).toEqual(['IHDR', 'iTXt', 'pHYs', 'IDAT', 'IEND']);
    const idat = (png: Buffer) => png.subarray(png.indexOf('IDAT') + 4, png.indexOf('IEND') - 8);
    expect(idat(png).equals(idat(file))).toBe(true);
  });

  it('names its license to the license check page and the report matching, as the re-encoded files did', async () => {
    const png = pngWithXmp(await output(), xmp)!;
    expect(await licenseInFile(new Uint8Array(png))).toEqual({ kind: 'license', licenseId: 'lic_abcdefghijklmnopqrstuv' });
    expect(licenseIdInMetadata(png)).toBe('lic_abcdefghijklmnopqrstuv');
  });

  it('leaves to the re-encoding what it cannot check: another format, a damaged or cut file, an interlaced or short image', async () => {
    const file = await output();
    expect(pngWithXmp(await sharp(file).jpeg().toBuffer(), xmp)).toBeUndefined();
    expect(pngWithXmp(file.subarray(0, file.length - 20), xmp)).toBeUndefined();
    const damaged = Buffer.from(file);
    damaged[damaged.indexOf('IDAT') + 10] ^= 0xff;
    expect(pngWithXmp(damaged, xmp)).toBeUndefined();
    expect(pngWithXmp(await sharp(file).png({ progressive: true }).toBuffer(), xmp)).toBeUndefined();
    // Rows missing from the image data, under valid CRCs: the header says 24 rows, the data holds 23.
    const ihdr = file.subarray(8, 8 + 25);
    const short = deflateSync(Buffer.alloc(23 * (1 + 32 * 3)));
    const idatChunk = Buffer.alloc(12 + short.length);
    idatChunk.writeUInt32BE(short.length, 0);
    idatChunk.write('IDAT', 4, 'latin1');
    short.copy(idatChunk, 8);
    const { crc32 } = await import('node:zlib');
    idatChunk.writeUInt32BE(crc32(idatChunk.subarray(4, 8 + short.length)), 8 + short.length);
    const iend = file.subarray(file.length - 12);
    expect(pngWithXmp(Buffer.concat([file.subarray(0, 8), ihdr, idatChunk, iend]), xmp)).toBeUndefined();
    // The same made whole reads: the check is the row count, not the way the file was built.
    const whole = deflateSync(Buffer.alloc(24 * (1 + 32 * 3)));
    const wholeChunk = Buffer.alloc(12 + whole.length);
    wholeChunk.writeUInt32BE(whole.length, 0);
    wholeChunk.write('IDAT', 4, 'latin1');
    whole.copy(wholeChunk, 8);
    wholeChunk.writeUInt32BE(crc32(wholeChunk.subarray(4, 8 + whole.length)), 8 + whole.length);
    expect(pngWithXmp(Buffer.concat([file.subarray(0, 8), ihdr, wholeChunk, iend]), xmp)).toBeDefined();
  });
});
