import {
  acceptanceEmail,
  applicationConfirmationEmail,
  invalidPhotosEmail,
  rejectionEmail,
  reviewReminderEmail,
  standardTiersText,
  waitedText,
} from '../../../functions/founding/emails/application';

const SITE = 'https://humanly.test/';

describe('founding application emails', () => {
  test('confirmation names the 15-20 business day review and the application number', () => {
    const email = applicationConfirmationEmail({ firstName: 'Ana', applicationId: 'app_x', program: 'founding', validPhotoCount: 42, siteUrl: SITE });
    expect(email.text).toContain('within 15-20 business days');
    expect(email.text).toContain('accepted 42 of your photos');
    expect(email.text).toContain('app_x');
    expect(email.text).toContain('35% royalties for life');
    expect(email.text).toContain('https://humanly.test/founding-talent-contact');
    expect(email.html).toContain('15-20 business days');
    expect(email.subject).toContain('founding talent application');
  });

  test('invalid photos: counted reasons and the photo guide, no file names', () => {
    const email = invalidPhotosEmail({
      firstName: 'Ana',
      applicationId: 'app_x',
      program: 'founding',
      validPhotoCount: 12,
      reasons: ['not a JPEG or PNG image', 'too small: 300x400, needs at least 512 px on the shorter side', 'not a JPEG or PNG image'],
      siteUrl: SITE,
    });
    expect(email.text).toContain('could accept 12');
    expect(email.text).toContain('at least 30 usable photos');
    expect(email.text).toContain('- 2 photos: not a JPEG or PNG image');
    expect(email.text).toContain('- 1 photo: too small: 300x400');
    expect(email.text).toContain('https://humanly.test/training-image-best-practices-founders');
  });

  test('acceptance as founding talent: 35% for life and the spot number', () => {
    const email = acceptanceEmail({ firstName: 'Ana', program: 'founding', founding: true, spotNumber: 7, siteUrl: SITE });
    expect(email.subject).toContain('#7');
    expect(email.text).toContain('founding talent #7 of 30');
    expect(email.text).toContain('35% royalties on every license of your likeness, for life');
    expect(email.text).not.toContain('were taken');
  });

  test('acceptance when the founding spots are gone: standard tiers and why', () => {
    const email = acceptanceEmail({ firstName: 'Ana', program: 'founding', founding: false, siteUrl: SITE });
    expect(email.text).toContain('All 30 founding spots were taken');
    expect(email.text).toContain('20% on the first 50 licenses each month, 25% on licenses 51-200, and 30% beyond 200');
    expect(email.text).not.toContain('35%');
  });

  test('acceptance of a standard-program applicant does not mention founding spots', () => {
    const email = acceptanceEmail({ firstName: 'Sam', program: 'standard', founding: false, siteUrl: SITE });
    expect(email.text).not.toContain('founding spots');
    expect(email.text).toContain(standardTiersText());
  });

  test("rejection carries the reviewer's message to the applicant, escaped in HTML; without one, no message block", () => {
    const withMessage = rejectionEmail({ firstName: 'Ana', program: 'founding', messageToApplicant: 'Lighting <too> dark', siteUrl: SITE });
    expect(withMessage.text).toContain('A message from our reviewer:\n\n> Lighting <too> dark');
    expect(withMessage.html).toContain('Lighting &#60;too&#62; dark');
    expect(withMessage.html).not.toContain('<too>');
    expect(withMessage.text).toContain('within 30 days');
    const without = rejectionEmail({ firstName: 'Ana', program: 'founding', messageToApplicant: '  ', siteUrl: SITE });
    expect(without.text).not.toContain('message from our reviewer');
  });

  test("acceptance carries the reviewer's message to the applicant when there is one", () => {
    const email = acceptanceEmail({ firstName: 'Ana', program: 'founding', founding: true, spotNumber: 2, messageToApplicant: 'Your portfolio stood out.', siteUrl: SITE });
    expect(email.text).toContain('A message from our reviewer:\n\n> Your portfolio stood out.');
    expect(acceptanceEmail({ firstName: 'Ana', program: 'founding', founding: true, spotNumber: 2, siteUrl: SITE }).text).not.toContain('message from our reviewer');
  });

  test('reminder names how long the application waited and links the admin console', () => {
    const email = reviewReminderEmail({
      applicationId: 'app_abcdefghijklmnopqrst',
      program: 'founding',
      submittedAt: '2026-02-01T10:00:00.000Z',
      waitedMs: 7 * 24 * 3_600_000 + 5 * 3_600_000,
      adminUrl: 'https://admin.humanly.test',
    });
    expect(email.subject).toBe('[Review] Application app_abcdefghijklmnopqrst has waited 7 days 5 hours');
    expect(email.text).toContain('waiting for a decision for 7 days 5 hours');
    expect(email.text).toContain('https://admin.humanly.test/#/applications/app_abcdefghijklmnopqrst/show');
  });

  test('waitedText', () => {
    expect(waitedText(3_600_000)).toBe('1 hour');
    expect(waitedText(24 * 3_600_000)).toBe('1 day');
    expect(waitedText(50 * 3_600_000)).toBe('2 days 2 hours');
  });
});
