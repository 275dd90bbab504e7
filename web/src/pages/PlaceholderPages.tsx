import { Link } from 'react-router';
import { BRAND_NAME } from '../brand';
import { useConfig } from '../config';
import { SimplePage } from './SimplePage';

/*
 * Placeholders so no link in the pre-launch layout is dead. Other work replaces each of these
 * with the full page; keep the routes and headings when you do.
 */

const BACK_TO_WAITLIST = { to: '/first-200', label: 'Back to the waitlist' };

export function FoundingTalentApplicationPage() {
  return (
    <SimplePage title="Become Founding Talent" documentTitle="Founding talent application" eyebrow="For talent">
      <p>
        License your likeness with consent and earn 35% royalties for life. Only 30 founding spots exist, and applying is
        free. The application form opens here soon; in the meantime, <Link to="/pre-launch-contact">get in touch</Link>.
      </p>
    </SimplePage>
  );
}

export function PreLaunchContactPage() {
  const { contactEmail } = useConfig();
  return (
    <SimplePage title="Contact us" documentTitle="Contact" backLink={BACK_TO_WAITLIST}>
      <p>
        Questions about {BRAND_NAME}, the waitlist or founding talent? Email{' '}
        <a href={`mailto:${contactEmail}`}>{contactEmail}</a> and we typically reply within 24 hours.
      </p>
    </SimplePage>
  );
}

export function PreLaunchPrivacyPage() {
  return (
    <SimplePage title="Privacy Policy" lastUpdated="December 2024" backLink={BACK_TO_WAITLIST}>
      <p>
        {BRAND_NAME} collects only what you give us on our pre-launch pages, such as your name and email, and uses it to
        manage your waitlist spot or application and to send the updates you asked for. We never sell your data.
      </p>
    </SimplePage>
  );
}

export function PreLaunchTermsPage() {
  return (
    <SimplePage title="Terms of Service" lastUpdated="December 2024" backLink={BACK_TO_WAITLIST}>
      <p>
        Joining the {BRAND_NAME} waitlist is free and does not guarantee access on any date or commit you to a purchase.
        Spots are limited and offered in the order people sign up; full platform terms apply from launch.
      </p>
    </SimplePage>
  );
}
