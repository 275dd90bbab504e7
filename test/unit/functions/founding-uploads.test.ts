import { randomBytes } from 'node:crypto';
import { zipSync } from 'fflate';
import { checkFile } from '../../../functions/founding/routes/create-founding-uploads/service';
import { fingerprintOf } from '../../../functions/founding/routes/founding-talent-signup/service';
import { readZipDirectory, UnreadableZipError, type RangeReader } from '../../../functions/founding/photos/zip-directory';
import { FoundingSignupRequest } from '../../../events/founding';

const reader = (bytes: Buffer): RangeReader => async (start, length) => bytes.subarray(start, start + length);
const directoryOf = (bytes: Buffer) => readZipDirectory(bytes.length, reader(bytes));
// Photo bytes barely compress: random bytes stand in for them.
const img = new Uint8Array(randomBytes(2000));

describe('zip directory', () => {
  it('counts photos, leaving out folders, hidden files and macOS metadata', async () => {
    const zip = Buffer.from(
      zipSync({ 'a/1.jpg': img, 'a/2.JPEG': img, '3.png': img, 'notes.txt': img, '.hidden.jpg': img, '__MACOSX/a/._1.jpg': img, 'empty/': new Uint8Array() }, { comment: 'x'.repeat(300) }),
    );
    const dir = await directoryOf(zip);
    expect(dir.imageCount).toBe(3);
    expect(dir.problems).toEqual([]);
  });

  it('names unsafe paths, nesting, oversize and bomb-like ratios', async () => {
    expect((await directoryOf(Buffer.from(zipSync({ '../x.jpg': img })))).problems).toEqual(['it contains a file whose path leaves the archive']);
    expect((await directoryOf(Buffer.from(zipSync({ '/etc/x.jpg': img })))).problems).toHaveLength(1);
    expect((await directoryOf(Buffer.from(zipSync({ 'inner.zip': img })))).problems[0]).toContain('another zip');
    const bomb = await directoryOf(Buffer.from(zipSync({ 'z.jpg': [new Uint8Array(26 * 1024 * 1024), { level: 9 }] })));
    expect(bomb.problems).toEqual(expect.arrayContaining([expect.stringContaining('larger than 25 MB'), expect.stringContaining('zip bombs')]));
  });

  it('refuses files that are not zips or are cut short', async () => {
    await expect(directoryOf(Buffer.from('%PDF-1.4 not a zip at all, but long enough to look'))).rejects.toBeInstanceOf(UnreadableZipError);
    const zip = Buffer.from(zipSync({ 'a.jpg': img, 'b.jpg': img }));
    await expect(directoryOf(zip.subarray(0, zip.length - 30))).rejects.toBeInstanceOf(UnreadableZipError);
  });

  it('refuses more entries than a zip may hold without reading them', async () => {
    const many = Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`p${i}.jpg`, new Uint8Array(1)]));
    expect((await directoryOf(Buffer.from(zipSync(many)))).problems[0]).toContain('201 files');
  });
});

describe('upload file check', () => {
  it('accepts jpg, jpeg, png and zip with a matching type, and Windows zip types', () => {
    expect(checkFile({ name: 'A.JPG', type: 'image/jpeg', size: 1 })).toEqual({ ext: 'jpg', contentType: 'image/jpeg' });
    expect(checkFile({ name: 'b.png', type: 'image/png', size: 1 })).toEqual({ ext: 'png', contentType: 'image/png' });
    expect(checkFile({ name: 'c.zip', type: 'application/x-zip-compressed', size: 1 })).toEqual({ ext: 'zip', contentType: 'application/zip' });
  });
  it('refuses other extensions, mismatched types and oversize files', () => {
    expect(checkFile({ name: 'x.svg', type: 'image/svg+xml', size: 1 })).toContain('only JPEG, PNG or ZIP');
    expect(checkFile({ name: 'noext', type: 'image/jpeg', size: 1 })).toContain('only JPEG, PNG or ZIP');
    expect(checkFile({ name: 'x.png', type: 'image/jpeg', size: 1 })).toContain('not a PNG image');
    expect(checkFile({ name: 'x.jpg', type: 'text/html', size: 1 })).toContain('text/html');
    expect(checkFile({ name: 'x.jpg', type: 'image/jpeg', size: 25 * 1024 * 1024 + 1 })).toContain('larger than 25 MB');
  });
});

describe('submission fingerprint', () => {
  const base = FoundingSignupRequest.parse({
    firstName: 'Ada', email: 'ada@example.com', location: 'London', experience: 'x', age: 30, terms: true,
    uploadedFilesCount: 2, imagePaths: ['pending/ada@example.com/1.jpg', 'pending/ada@example.com/2.jpg'], uploadSession: 'a'.repeat(22),
  });
  it('is the same for the same submission however it was written', () => {
    const again = FoundingSignupRequest.parse({ ...base, email: ' ADA@example.com ', imagePaths: [...base.imagePaths].reverse(), firstName: ' Ada ' });
    expect(fingerprintOf(again)).toBe(fingerprintOf(base));
  });
  it('differs when anything an applicant wrote differs', () => {
    expect(fingerprintOf({ ...base, experience: 'y' })).not.toBe(fingerprintOf(base));
    expect(fingerprintOf({ ...base, imagePaths: base.imagePaths.slice(1) })).not.toBe(fingerprintOf(base));
  });
});

describe('portfolio address', () => {
  const base = {
    firstName: 'Ada', email: 'ada@example.com', location: 'London', experience: 'x', age: 30, terms: true,
    uploadedFilesCount: 30, imagePaths: ['k'], uploadSession: 'A'.repeat(22),
  };
  const parse = (portfolioUrl: string) => FoundingSignupRequest.safeParse({ ...base, portfolioUrl });

  it('accepts http(s) addresses, an empty one, and takes a bare site as https', () => {
    expect(parse('https://portfolio.example/ada').data?.portfolioUrl).toBe('https://portfolio.example/ada');
    expect(parse('http://portfolio.example').data?.portfolioUrl).toBe('http://portfolio.example');
    expect(parse('instagram.com/ada').data?.portfolioUrl).toBe('https://instagram.com/ada');
    expect(parse('').data?.portfolioUrl).toBe('');
  });

  it.each(['javascript:alert(document.cookie)', 'data:text/html,<script>x</script>', 'file:///etc/passwd', 'ftp://files.example/me', 'https://'])(
    'refuses %s, naming the field',
    (url) => {
      const result = parse(url);
      expect(result.success).toBe(false);
      expect(result.error!.issues.map((i) => i.message)).toEqual(['portfolioUrl must be a web address starting with http:// or https://']);
    },
  );
});
