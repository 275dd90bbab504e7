import { LICENSE_ID_MESSAGE, LICENSE_ID_PATTERN, LICENSE_NOT_FOUND_MESSAGE } from '../../../../events/generation-values';
import sharp from 'sharp';
import { LICENSE_IMAGE_ERASED_MESSAGE, LICENSE_IMAGE_MISSING_MESSAGE, LICENSE_REVOKED_IMAGE_MESSAGE, LICENSE_THUMBNAIL_SIZE, LICENSE_WITHHELD_IMAGE_MESSAGE } from '../../../../events/license-check';
import { NotFoundError, ValidationError } from '../../../shared/errors';
import { MAX_DECODED_PIXELS } from '../../../shared/pixel-hash';
import type { Bucket } from '../../../shared/s3';
import { licenseThumbnail } from '../../license-files';
import type { GenerationStore } from '../../store';

/**
 * The license page's thumbnail: at most LICENSE_THUMBNAIL_SIZE on its longest side, WebP, with no
 * metadata (sharp writes none unless asked), so it carries no license to copy onto another file.
 */
function thumbnailOf(file: Buffer): Promise<Buffer> {
  return sharp(file, { limitInputPixels: MAX_DECODED_PIXELS })
    .resize({ width: LICENSE_THUMBNAIL_SIZE, height: LICENSE_THUMBNAIL_SIZE, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 70 })
    .toBuffer();
}

export interface ThumbnailDeps {
  generations: Pick<GenerationStore, 'getLicense'>;
  images: Pick<Bucket, 'read' | 'write'>;
}

/**
 * The licensed image's thumbnail for the public license page (decision 035): a small WebP without
 * metadata, never the file. 404 naming why when there is none: the license is unknown, its
 * client's data was erased (the image with it), or the image is not stored.
 */
export async function getLicenseThumbnail(deps: ThumbnailDeps, id: string): Promise<Buffer> {
  if (!LICENSE_ID_PATTERN.test(id)) throw new ValidationError(LICENSE_ID_MESSAGE, { id: LICENSE_ID_MESSAGE });
  const license = await deps.generations.getLicense(id);
  if (!license) throw new NotFoundError(LICENSE_NOT_FOUND_MESSAGE);
  if (license.erasedAt) throw new NotFoundError(LICENSE_IMAGE_ERASED_MESSAGE);
  if (license.revokedAt) throw new NotFoundError(LICENSE_REVOKED_IMAGE_MESSAGE);
  if (license.withheldBy) throw new NotFoundError(LICENSE_WITHHELD_IMAGE_MESSAGE);
  const thumbnail = await licenseThumbnail(deps.images, license, thumbnailOf);
  if (!thumbnail) throw new NotFoundError(LICENSE_IMAGE_MISSING_MESSAGE);
  return thumbnail;
}
