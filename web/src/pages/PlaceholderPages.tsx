import { Link } from 'react-router';
import { SimplePage } from './SimplePage';

/*
 * Placeholders so no link in the pre-launch layout is dead. Other work replaces each of these
 * with the full page; keep the routes and headings when you do.
 */

export function FoundingTalentApplicationPage() {
  return (
    <SimplePage title="Become Founding Talent" documentTitle="Founding talent application" eyebrow="For talent">
      <p>
        License your likeness with consent and earn 35% royalties for life. Only 30 founding spots exist, and applying is
        free. The application form opens here soon; in the meantime, <Link to="/founding-talent-contact">get in touch</Link>.
      </p>
    </SimplePage>
  );
}
