// Finding which delivered image a reported file is (decision 059): the license its metadata names
// (when its pixels do not say otherwise), then the index of delivered fingerprints: the same
// pixels, or the closest perceptual hash within the threshold.
import type { ReportMatch } from '../../events/reports';
import type { GenerationStore } from '../generation';
import { candidateKeys, compare, fingerprintImage, licenseIdInMetadata, type Fingerprint } from './matching';
import type { ReportStore } from './store';

/** The license record as matching reads it (the generation wing's). */
type MatchedLicense = NonNullable<Awaited<ReturnType<GenerationStore['getLicense']>>>;

export interface MatchDeps {
  index: Pick<ReportStore, 'candidates' | 'getFingerprint' | 'getFingerprints'>;
  licenses: Pick<GenerationStore, 'getLicense'>;
}

export interface MatchFound {
  match: ReportMatch;
  /** The matched license, when the file is ours. */
  license?: MatchedLicense;
  fingerprint: Fingerprint;
}

/** The most candidates compared for one file: an index key shared by hundreds of images says nothing. */
const MAX_CANDIDATES = 200;

const ours = (license: MatchedLicense, how: 'metadata' | 'exact-pixels' | 'perceptual'): ReportMatch => ({
  verdict: 'ours',
  licenseId: license.id,
  talentName: license.talentName,
  licensedAt: license.issuedAt,
  how,
});

/**
 * Which of our delivered images the file is, if any. Throws NotAnImageError (415) for a file that
 * is no image. A license id in the metadata counts only when the image it names was not indexed
 * or its fingerprint agrees: a real id pasted into another picture names nothing.
 */
export async function matchImage(deps: MatchDeps, file: Buffer): Promise<MatchFound> {
  const fingerprint = await fingerprintImage(file);
  const named = licenseIdInMetadata(file);
  if (named) {
    const license = await deps.licenses.getLicense(named);
    if (license) {
      const delivered = await deps.index.getFingerprint(named);
      if (!delivered || compare(fingerprint, delivered.fingerprint).same) return { match: ours(license, 'metadata'), license, fingerprint };
    }
  }
  const candidates = (await deps.index.candidates(candidateKeys(fingerprint))).slice(0, MAX_CANDIDATES);
  let best: { licenseId: string; distance: number; how: 'exact-pixels' | 'perceptual' } | undefined;
  for (const delivered of await deps.index.getFingerprints(candidates)) {
    const result = compare(fingerprint, delivered.fingerprint);
    if (result.same && (!best || result.distance < best.distance)) best = { licenseId: delivered.licenseId, distance: result.distance, how: result.how };
    if (best?.distance === 0) break;
  }
  if (best) {
    const license = await deps.licenses.getLicense(best.licenseId);
    if (license) return { match: ours(license, best.how), license, fingerprint };
  }
  return { match: { verdict: 'not-ours' }, fingerprint };
}
