// The provenance written into every delivered image (docs/generation.md#provenance): IPTC's
// DigitalSourceType for images made by a trained model, and our license fields, as one XMP packet.
import { IPTC_TRAINED_ALGORITHMIC_MEDIA, LICENSE_SCOPE_TEXT, XMP_NAMESPACE } from '../../../../events/generation-values';

export interface LicenseXmp {
  licenseId: string;
  talentId: string;
  talentName: string;
  /** The public page that confirms the license. */
  licenseUrl: string;
}

/**
 * Every character XML 1.0 forbids (its `Char` production allows tab, LF, CR, U+0020-U+D7FF,
 * U+E000-U+FFFD and U+10000-U+10FFFF): the other C0 controls, lone surrogates, U+FFFE and
 * U+FFFF. One of them in a name would make the whole packet malformed, and readers drop it.
 * With the `u` flag a lone surrogate is one code point of its own, so it matches here, while a
 * well-formed pair (an emoji) is one astral code point and stays.
 */
const NOT_XML_CHAR = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text as XML 1.0 can hold it: without the characters it forbids. */
const xmlSafe = (text: string) => text.replace(NOT_XML_CHAR, '');

const escapeXml = (text: string) =>
  xmlSafe(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

/**
 * The XMP packet: `Iptc4xmpExt:DigitalSourceType`, `xmpRights:WebStatement` (the license page),
 * `xmpRights:Marked`, `dc:rights`, and `humanly:LicenseId`, `humanly:TalentId`,
 * `humanly:TalentName`, `humanly:LicenseUrl` in XMP_NAMESPACE.
 */
export function licenseXmp(license: LicenseXmp): string {
  const v = {
    licenseId: escapeXml(license.licenseId),
    talentId: escapeXml(license.talentId),
    talentName: escapeXml(license.talentName),
    licenseUrl: escapeXml(license.licenseUrl),
  };
  const rights = escapeXml(`Licensed image of ${license.talentName}, license ${license.licenseId}. ${LICENSE_SCOPE_TEXT} Check it at ${license.licenseUrl}`);
  return [
    '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
    ' <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    '  <rdf:Description rdf:about=""',
    '    xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/"',
    '    xmlns:xmpRights="http://ns.adobe.com/xap/1.0/rights/"',
    '    xmlns:dc="http://purl.org/dc/elements/1.1/"',
    `    xmlns:humanly="${escapeXml(XMP_NAMESPACE)}"`,
    `    Iptc4xmpExt:DigitalSourceType="${escapeXml(IPTC_TRAINED_ALGORITHMIC_MEDIA)}"`,
    `    xmpRights:WebStatement="${v.licenseUrl}"`,
    '    xmpRights:Marked="True"',
    `    humanly:LicenseId="${v.licenseId}"`,
    `    humanly:TalentId="${v.talentId}"`,
    `    humanly:TalentName="${v.talentName}"`,
    `    humanly:LicenseUrl="${v.licenseUrl}">`,
    `   <dc:rights><rdf:Alt><rdf:li xml:lang="x-default">${rights}</rdf:li></rdf:Alt></dc:rights>`,
    '  </rdf:Description>',
    ' </rdf:RDF>',
    '</x:xmpmeta>',
    '<?xpacket end="w"?>',
  ].join('\n');
}
