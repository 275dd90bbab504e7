import { useState } from 'react';
import { Link } from 'react-router';
import type { PublicLicense } from '../../../../events/generations';
import { LICENSE_SCOPE_TEXT } from '../../../../events/generation-values';
import { REPORT_PATH, revokedText } from '../../../../events/report-values';
import { BRAND_NAME } from '../../brand';
import { Facts } from '../../components/Facts';
import { Icon } from '../../components/Icon';

/** "November 25, 2026" (UTC, the license's own date wherever it is read). */
function issuedOn(iso: string): string {
  return new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });
}

/** The thumbnail's box (CSS pixels): the image fits inside it whatever its shape. */
const THUMBNAIL_BOX = 240;

/**
 * The licensed image, small (docs/product.md#licenses): the license page is public, so it shows a
 * thumbnail, never the file. Once the licensee's data is erased there is no image, and it says so.
 */
function LicensedImage({ license, thumbnailUrl }: { license: PublicLicense; thumbnailUrl: string }) {
  const [failed, setFailed] = useState(false);
  if (license.withheld || license.revokedAt) {
    return (
      <p className="license-card__no-image" data-testid="license-no-image">
        {license.revokedAt ? 'The image is no longer shown: its license was revoked.' : 'The image is withheld while we review a report about it.'}
      </p>
    );
  }
  if (license.image === 'stored' && !failed) {
    return (
      <img
        className="license-card__image"
        src={thumbnailUrl}
        alt={`The licensed image of ${license.talentName}`}
        width={THUMBNAIL_BOX}
        height={THUMBNAIL_BOX}
        loading="lazy"
        onError={() => setFailed(true)}
        data-testid="license-thumbnail"
      />
    );
  }
  return (
    <p className="license-card__no-image" data-testid="license-no-image">
      {license.image === 'erased'
        ? "The image is no longer stored: the licensee's data was erased at their request. The license remains valid."
        : 'The image cannot be shown right now.'}
    </p>
  );
}

/** A license as the public sees it: the image (small), talent, licensee, date and scope; never the prompt. */
export function LicenseCard({ license, thumbnailUrl }: { license: PublicLicense; thumbnailUrl: string }) {
  return (
    <section className="card license-card" aria-labelledby="license-card-title" data-testid="license-card" data-license-id={license.id}>
      {license.revokedAt ? (
        <p className="license-card__revoked" role="status" data-testid="license-revoked">
          {revokedText(license.revokedAt, license.revokedReason ?? 'a report about the image was upheld')}
        </p>
      ) : (
        <p className="license-card__valid">
          <Icon name="check" size={20} /> Valid license
        </p>
      )}
      <h2 id="license-card-title" className="license-card__title">
        Commercial license for an image of {license.talentName}
      </h2>
      <LicensedImage license={license} thumbnailUrl={thumbnailUrl} />
      <Facts
        className="license-facts"
        facts={[
          { term: 'License', value: license.id, testId: 'license-id', className: 'license-facts__id' },
          { term: 'Talent', value: <Link to={`/talent/${encodeURIComponent(license.talentId)}`}>{license.talentName}</Link>, testId: 'license-talent' },
          { term: 'Licensee', value: license.licensee, testId: 'license-licensee' },
          { term: 'Issued', value: <time dateTime={license.issuedAt}>{issuedOn(license.issuedAt)}</time>, testId: 'license-issued' },
          { term: 'Style', value: license.style },
          { term: 'Scope', value: LICENSE_SCOPE_TEXT, testId: 'license-scope' },
        ]}
      />
      <p className="license-card__note">
        {license.talentName} consented to the use of their likeness and earns a royalty on this image. The license is issued by{' '}
        {BRAND_NAME} to the licensee named above.
      </p>
      <p className="license-card__report">
        <Icon name="bell" size={16} /> Seen this image misused?{' '}
        <Link to={`${REPORT_PATH}?license=${encodeURIComponent(license.id)}`} data-testid="license-report-link">
          Report it
        </Link>
      </p>
    </section>
  );
}
