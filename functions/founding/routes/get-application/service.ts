import { ADMIN_PHOTO_URL_TTL_SECONDS, type ApplicationDetail } from '../../../../events/founding';
import { SELFIE_RESULT_TEXTS } from '../../../../events/identity-values';
import { NotFoundError } from '../../../shared/errors';
import type { Bucket } from '../../../shared/s3';
import { ApplicationNotFoundError, toDetail, type FoundingStore } from '../../store';
import { APPLICATION_ID_PATTERN, photoKey, thumbnailKey } from '../../keys';

export interface GetApplicationDeps {
  store: FoundingStore;
  /** The photos bucket, which signs the short-lived URLs. */
  photos: Pick<Bucket, 'getUrl'>;
}

/** One application with its history and short-lived URLs of its accepted photos and thumbnails. */
export async function getApplication(deps: GetApplicationDeps, id: string): Promise<ApplicationDetail> {
  if (!APPLICATION_ID_PATTERN.test(id)) throw new NotFoundError('No application with this id.');
  const [app, history] = await Promise.all([
    deps.store.getApplication(id).catch((err) => {
      if (err instanceof ApplicationNotFoundError) return undefined;
      throw err;
    }),
    deps.store.readHistory(id),
  ]);
  if (!app) throw new NotFoundError('No application with this id.');

  const sign = (key: string) => deps.photos.getUrl(key, { expiresIn: ADMIN_PHOTO_URL_TTL_SECONDS });
  const accepted = (app.photoResults ?? []).filter((p) => p.accepted && p.index !== undefined);
  const photos = await Promise.all(
    accepted.map(async (p) => ({
      index: p.index!,
      width: p.width ?? 0,
      height: p.height ?? 0,
      thumbnailUrl: await sign(thumbnailKey(id, p.index!)),
      url: await sign(photoKey(id, p.index!)),
    })),
  );
  const detail = toDetail(app, history, photos);
  const identity = app.identity;
  if (!identity) return detail;
  const { pendingReplacements: _p, checkedAt: _c, selfie, ...rest } = identity;
  // The verification and the failed checks are attributes of their own beside `identity` (store.ts).
  return {
    ...detail,
    identity: {
      ...rest,
      ...(selfie
        ? {
            selfie: {
              state: selfie.state,
              ...(selfie.state !== 'none' && selfie.state !== 'waiting-for-photos' ? { message: SELFIE_RESULT_TEXTS[selfie.state] } : {}),
              ...(selfie.score !== undefined ? { score: selfie.score } : {}),
              ...(selfie.threshold !== undefined ? { threshold: selfie.threshold } : {}),
              ...(selfie.takenAt ? { takenAt: selfie.takenAt } : {}),
              ...(selfie.copyOf ? { copyOf: selfie.copyOf } : {}),
              // The verified selfie as read from Stripe, signed for a few minutes like the photos.
              ...(selfie.key ? { url: await sign(selfie.key) } : {}),
            },
          }
        : {}),
      ...(app.verification ? { verification: app.verification } : {}),
      ...(app.failedChecks?.length ? { failedChecks: app.failedChecks } : {}),
    },
  };
}
