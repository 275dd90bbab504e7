// What the applicant's identity routes answer when they refuse, and the network limit they share (docs/identity.md).
import { MAX_APPLICATION_IMAGES } from '../../../events/founding-values';

export const IDENTITY_MESSAGES = {
  tooMany: 'Too many requests for this application in the last hour. Wait a little, then try again.',
  tooManyFromNetwork: 'Too many requests from your network in the last hour. Wait a little, then try again.',
  closed: 'This application has been decided: there is nothing more to send.',
  oldConsent: 'The consent text has changed since this page was opened. Reload the page, read it again and sign.',
  nameMismatch: (name: string) => `Type your full name as on your application: ${name}.`,
  alreadySigned: 'You have already signed: your consent is recorded and cannot be changed.',
  noFaceConsent: 'A selfie is only taken with your consent to face checks.',
  faceConsentWithdrawn: 'You withdrew your consent to face checks: nothing about your face is analysed, and a reviewer compares your photos by hand.',
  nothingToWithdraw: 'You have not given consent to face checks: there is nothing to withdraw.',
  noApplication: 'There is no application under your account’s confirmed email, so no face data to withdraw.',
  tooManyChanges: 'Too many requests from your account in the last hour. Wait a little, then try again.',
  notAwaitingPhotos: 'Your application is not waiting for new photos.',
  notYourUpload: 'These photos were not uploaded through this link.',
  tooManyPhotos: `An application holds at most ${MAX_APPLICATION_IMAGES} photos: remove more, or add fewer.`,
  unknownPhoto: (index: number) => `There is no photo ${index + 1} to remove.`,
} as const;

/** Requests per network per hour over all identity routes (one counter for them all). */
const IDENTITY_REQUESTS_PER_IP_PER_HOUR = 300;

/** Face data requests per talent account per hour (`/me/face-data`). */
const FACE_DATA_REQUESTS_PER_ACCOUNT_PER_HOUR = 30;

/** The talent portal's face data routes: per account (their network shares identityNetworkRule). */
export const faceDataAccountRule = (accountId: string) => ({
  name: 'face-data.account',
  subject: accountId,
  limit: FACE_DATA_REQUESTS_PER_ACCOUNT_PER_HOUR,
  windowSeconds: 3600,
  message: IDENTITY_MESSAGES.tooManyChanges,
});

/** The identity routes' shared limit per network. */
export const identityNetworkRule = (ip: string) => ({
  name: 'founding-identity.ip',
  subject: ip,
  limit: IDENTITY_REQUESTS_PER_IP_PER_HOUR,
  windowSeconds: 3600,
  message: IDENTITY_MESSAGES.tooManyFromNetwork,
});
