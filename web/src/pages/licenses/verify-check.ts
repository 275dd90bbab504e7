// Our license check of a file /verify read credentials from (decision 062): loaded only when a
// file names one of our licenses, with the check's wording and limits (and the validation library
// they bring), so the page itself stays small.
import { LICENSE_CHECK_MAX_BYTES, LICENSE_FILE_MESSAGES } from '../../../../events/license-check';
import { LicenseNotFoundError, generationApi } from '../../generation/api';

/** What the license check answered for the file, in the check page's words. */
export interface LicenseCheckAnswer {
  verdict: 'licensed-image' | 'other-image' | 'not-comparable' | 'unknown-license' | 'not-checked';
  message: string;
}

/** `POST /licenses/{id}/check` with the file, as /licenses/check sends it. */
export async function checkAgainstLicense(apiUrl: string, licenseId: string, file: File): Promise<LicenseCheckAnswer> {
  if (file.size > LICENSE_CHECK_MAX_BYTES) {
    return { verdict: 'not-checked', message: `The file is over ${LICENSE_CHECK_MAX_BYTES / 1024 / 1024} MB, too large to compare with the licensed image.` };
  }
  try {
    const checked = await generationApi({ apiUrl }).checkFile(licenseId, file);
    return { verdict: checked.file, message: LICENSE_FILE_MESSAGES[checked.file] };
  } catch (err) {
    if (err instanceof LicenseNotFoundError) return { verdict: 'unknown-license', message: `We issued no license with the id ${licenseId}.` };
    return { verdict: 'not-checked', message: 'The file could not be compared with the licensed image right now.' };
  }
}
