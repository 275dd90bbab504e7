// Checking a dropped file on /licenses/check (decision 035): read the license id in its XMP, then
// send it to that license's check. Loaded only when a file is chosen (decision 063), with the XMP
// reader, the API client, the check's wording and limits, the validation library they bring and
// the license card: the page's own JavaScript stays within the 100 KB budget.
import type { PublicLicense } from '../../../../events/generations';
import { LICENSE_CHECK_MAX_BYTES, LICENSE_FILE_MESSAGES, type LicenseFileVerdict } from '../../../../events/license-check';
import { LicenseNotFoundError, generationApi } from '../../generation/api';
import { licenseInFile } from '../../generation/xmp';

export { LicenseCard } from './LicenseCard';

/** What each verdict adds to LICENSE_FILE_MESSAGES, for the person holding the file. */
const VERDICT_DETAIL: Record<LicenseFileVerdict, string> = {
  'licensed-image': 'Its pixels are those of the image this license was issued for.',
  'other-image':
    'The file names this license, but its pixels are not the licensed image: the license was copied onto another image, or the image was edited, resized or re-compressed with loss. Compare it with the licensed image below.',
  'not-comparable': 'The license below is valid, but we cannot tell whether this file is its image.',
};

/** Why a file got no verdict, in the page's words. */
export interface FileProblem {
  kind: 'problem';
  title: string;
  body: string;
}

/** The license id the file carries, or why there is none to check. */
export type FileLicense = { kind: 'license'; licenseId: string } | FileProblem;

/** The check's answer: the license, and whether the file is its image. */
export type FileCheck =
  | { kind: 'checked'; license: PublicLicense; verdict: LicenseFileVerdict; message: string; detail: string; thumbnailUrl: string }
  | FileProblem;

/** Reads the license id in the file's XMP, in the browser: nothing is sent anywhere. */
export async function readFileLicense(file: File): Promise<FileLicense> {
  if (file.size > LICENSE_CHECK_MAX_BYTES) {
    return {
      kind: 'problem',
      title: 'This file is too large to check',
      body: `The limit is ${LICENSE_CHECK_MAX_BYTES / 1024 / 1024} MB, and the images we deliver are smaller; choose the file you downloaded.`,
    };
  }
  try {
    const found = await licenseInFile(new Uint8Array(await file.arrayBuffer()));
    if (found.kind === 'no-xmp') {
      return {
        kind: 'problem',
        title: 'This file carries no license',
        body: 'It has no license information inside. Images downloaded from us carry their license in the file; a screenshot or an edited copy may have lost it.',
      };
    }
    if (found.kind === 'no-license') {
      return { kind: 'problem', title: 'This file carries no license of ours', body: 'It has image information inside, but no license from our marketplace.' };
    }
    return found;
  } catch {
    return { kind: 'problem', title: 'This file could not be read', body: 'Choose the image file again.' };
  }
}

/** `POST /licenses/{id}/check` with the file: the API compares its pixels with the licensed image's. */
export async function checkFileLicense(apiUrl: string, licenseId: string, file: File): Promise<FileCheck> {
  const api = generationApi({ apiUrl });
  try {
    const checked = await api.checkFile(licenseId, file);
    return {
      kind: 'checked',
      license: checked.license,
      verdict: checked.file,
      message: LICENSE_FILE_MESSAGES[checked.file],
      detail: VERDICT_DETAIL[checked.file],
      thumbnailUrl: api.thumbnailUrl(checked.license.id),
    };
  } catch (err) {
    if (err instanceof LicenseNotFoundError) {
      return { kind: 'problem', title: 'This license is unknown', body: `The file names license ${licenseId}, but we issued no license with that id.` };
    }
    return { kind: 'problem', title: 'The license could not be checked', body: err instanceof Error ? err.message : 'Try again in a moment.' };
  }
}
