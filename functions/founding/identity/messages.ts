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
  notAwaitingPhotos: 'Your application is not waiting for new photos.',
  notYourUpload: 'These photos were not uploaded through this link.',
  tooManyPhotos: `An application holds at most ${MAX_APPLICATION_IMAGES} photos: remove more, or add fewer.`,
  unknownPhoto: (index: number) => `There is no photo ${index + 1} to remove.`,
} as const;

/** Requests per network per hour over all identity routes (one counter for them all). */
const IDENTITY_REQUESTS_PER_IP_PER_HOUR = 300;

/** The identity routes' shared limit per network. */
export const identityNetworkRule = (ip: string) => ({
  name: 'founding-identity.ip',
  subject: ip,
  limit: IDENTITY_REQUESTS_PER_IP_PER_HOUR,
  windowSeconds: 3600,
  message: IDENTITY_MESSAGES.tooManyFromNetwork,
});
