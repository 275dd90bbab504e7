import sharp from 'sharp';
import { XMP_NAMESPACE } from '../../../events/generation-values';
import { licenseXmp } from '../../../functions/generation/steps/deliver-images/xmp';
import { licenseIdInXmp } from '../../../events/generation-values';
import { licenseInFile } from '../../../web/src/generation/xmp';

// The license check reads real image files, written by sharp as the delivery step writes them.
const LICENSE = 'lic_AbCdEfGhIjKlMnOpQrStUv';
const packet = (inner: string, ns = XMP_NAMESPACE) =>
  `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">` +
  `<rdf:Description rdf:about="" xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/" xmlns:hm="${ns}" ` +
  `Iptc4xmpExt:DigitalSourceType="http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia">${inner}</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`;
const ours = packet(`<hm:LicenseId>${LICENSE}</hm:LicenseId><hm:Talent>maya-chen</hm:Talent>`);

const image = () => sharp({ create: { width: 16, height: 16, channels: 3, background: '#c2410c' } });
const bytes = (buf: Buffer) => new Uint8Array(buf);

describe('license in an image file', () => {
  it.each([
    ['PNG (compressed zTXt chunk)', () => image().png().withXmp(ours).toBuffer()],
    ['JPEG (APP1 segment)', () => image().jpeg().withXmp(ours).toBuffer()],
    ['WebP (XMP chunk)', () => image().webp().withXmp(ours).toBuffer()],
  ])('finds the license id in a %s', async (_, make) => {
    const file = await make();
    expect(await licenseInFile(bytes(file))).toEqual({ kind: 'license', licenseId: LICENSE });
  });

  it('reads the packet the delivery step writes into every image', async () => {
    const packet = licenseXmp({ licenseId: LICENSE, talentId: 'maya-chen', talentName: 'Maya Chen', licenseUrl: `https://site.example/licenses/${LICENSE}` });
    const file = await image().png().withXmp(packet).toBuffer();
    expect(await licenseInFile(bytes(file))).toEqual({ kind: 'license', licenseId: LICENSE });
  });

  it('says when a file has no XMP at all (a screenshot, a re-saved copy)', async () => {
    expect(await licenseInFile(bytes(await image().png().toBuffer()))).toEqual({ kind: 'no-xmp' });
    expect(await licenseInFile(new TextEncoder().encode('not an image'))).toEqual({ kind: 'no-xmp' });
  });

  it('says when the XMP carries no license of ours: another namespace, or a value that is not a license id', async () => {
    const foreign = packet(`<hm:LicenseId>${LICENSE}</hm:LicenseId>`, 'https://elsewhere.example/ns/');
    expect(await licenseInFile(bytes(await image().png().withXmp(foreign).toBuffer()))).toEqual({ kind: 'no-license' });
    const bogus = packet('<hm:LicenseId>lic_short</hm:LicenseId>');
    expect(await licenseInFile(bytes(await image().jpeg().withXmp(bogus).toBuffer()))).toEqual({ kind: 'no-license' });
  });

  it('reads the attribute form and any prefix bound to our namespace', () => {
    const attr = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:Description xmlns:lic.v1='${XMP_NAMESPACE}' lic.v1:LicenseId='${LICENSE}'/></x:xmpmeta>`;
    expect(licenseIdInXmp(attr)).toBe(LICENSE);
    // The local name alone is not enough: the prefix must be ours.
    expect(licenseIdInXmp(`<x:xmpmeta><a:LicenseId>${LICENSE}</a:LicenseId></x:xmpmeta>`)).toBeUndefined();
  });

  it('reads a PNG whose XMP is an uncompressed iTXt chunk (other tools write it so)', async () => {
    const png = await image().png().toBuffer();
    const text = Buffer.concat([Buffer.from('XML:com.adobe.xmp\0\0\0\0\0', 'latin1'), Buffer.from(ours, 'utf8')]);
    const chunk = Buffer.alloc(12 + text.length);
    chunk.writeUInt32BE(text.length, 0);
    chunk.write('iTXt', 4, 'latin1');
    text.copy(chunk, 8); // the CRC is left zero: the reader does not need it
    const withChunk = Buffer.concat([png.subarray(0, 33), chunk, png.subarray(33)]);
    expect(await licenseInFile(bytes(withChunk))).toEqual({ kind: 'license', licenseId: LICENSE });
  });
});
