// Checking a file against its license (docs/product.md#license-check, decision 035): the site sends
// the dropped file to `POST /licenses/{id}/check` with the license id its XMP names, and the API
// compares the file's pixels with the licensed image's. The license page shows a small thumbnail of
// the licensed image (`GET /licenses/{id}/thumbnail`) while the image is stored.
import * as z from 'zod';
import { PublicLicense } from './generations';

/**
 * The largest file the check takes, in bytes. The file travels in the request body, which API
 * Gateway hands to Lambda base64-encoded inside an invocation of at most 6 MB: 4 MiB is what
 * fits with room for the headers. Delivered images are well under it.
 */
export const LICENSE_CHECK_MAX_BYTES = 4 * 1024 * 1024;
/** The types a dropped file may be sent as (the bytes decide the format; this only keeps other bodies out). */
export const LICENSE_CHECK_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'application/octet-stream'] as const;
/** Checks one network may make per hour: each decodes an image, so a script cannot make us decode without end. */
export const LICENSE_CHECKS_PER_HOUR = 60;

/** The thumbnail's longest side, in pixels: enough to recognise the image, too small to use it. */
export const LICENSE_THUMBNAIL_SIZE = 320;

/**
 * What the comparison found: the file's pixels are the licensed image's (`licensed-image`), they
 * are not (`other-image`), or the licensed image is not stored to compare with (`not-comparable`).
 */
export const LICENSE_FILE_VERDICTS = ['licensed-image', 'other-image', 'not-comparable'] as const;
export type LicenseFileVerdict = (typeof LICENSE_FILE_VERDICTS)[number];

/** `POST /licenses/{id}/check` (anyone): the license and what its comparison with the file found. */
export const LicenseFileCheck = z.object({ license: PublicLicense, file: z.enum(LICENSE_FILE_VERDICTS) });
export type LicenseFileCheck = z.infer<typeof LicenseFileCheck>;

/** What the check page says for each verdict. */
export const LICENSE_FILE_MESSAGES: Record<LicenseFileVerdict, string> = {
  'licensed-image': 'This file is the licensed image.',
  'other-image': 'This license exists, but this file is not its image.',
  'not-comparable': 'This license exists, but its image is not stored, so the file cannot be compared with it.',
};

export const LICENSE_CHECK_EMPTY_MESSAGE = 'Send the image file as the request body.';
export const LICENSE_CHECK_TOO_LARGE_MESSAGE = `This file is too large to check: the limit is ${LICENSE_CHECK_MAX_BYTES / 1024 / 1024} MB, and the images we deliver are smaller.`;
export const LICENSE_CHECK_TYPE_MESSAGE = `Send the file as ${LICENSE_CHECK_TYPES.join(', ')} (Content-Type).`;
export const LICENSE_CHECK_NOT_AN_IMAGE_MESSAGE = 'This file is not an image we can read: send a PNG, JPEG or WebP file.';
export const LICENSE_CHECKS_MESSAGE = `This network has checked ${LICENSE_CHECKS_PER_HOUR} files in the last hour, the limit. Please try again later.`;

/** Why a license page shows no thumbnail. */
export const LICENSE_IMAGE_ERASED_MESSAGE = "This license's image is no longer stored: the licensee's data was erased at their request.";
export const LICENSE_IMAGE_MISSING_MESSAGE = "This license's image is not stored.";
/** Why a license page shows no thumbnail and its client gets no download after a report (decision 058). */
export const LICENSE_REVOKED_IMAGE_MESSAGE = 'This license was revoked: its image is no longer shown or downloadable.';
export const LICENSE_WITHHELD_IMAGE_MESSAGE = "This license's image is withheld while a report about it is reviewed.";
