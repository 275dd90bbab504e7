import { Link } from 'react-router';
import { BRAND_NAME } from '../../brand';
import { Icon, type IconName } from '../../components/Icon';
import { useConfig } from '../../config';
import { usePageTitle } from '../../lib/usePageTitle';
import { AREA_LINKS, type SiteArea } from '../../lib/siteAreas';
import { BackLink } from '../../components/BackLink';
import { CONTACT_RESPONSE_TIME } from '../../api/contact';
import { ContactForm } from './ContactForm';
import './ContactPage.css';

interface Topic {
  icon: IconName;
  title: string;
  body: string;
}

const TOPICS: Record<SiteArea, readonly Topic[]> = {
  main: [
    { icon: 'users', title: 'Talent and royalties', body: 'Applying, your likeness model, excluded industries and monthly payouts.' },
    { icon: 'sparkles', title: 'Creating and licensing', body: 'Credits, plans, commercial use and what you may publish.' },
    { icon: 'star', title: 'Freezing a likeness', body: 'Exclusive rights to a talent for your brand, with a custom model.' },
    { icon: 'shield', title: 'Privacy and your data', body: 'Access, correct or delete your data, or remove your likeness.' },
  ],
  founding: [
    { icon: 'star', title: 'The founding programme', body: '35% royalties for life, the 30 founding spots and who qualifies.' },
    { icon: 'sparkles', title: 'Your photos', body: 'What to submit, file types, and how we keep your photos private.' },
    { icon: 'calendar', title: 'Your application', body: 'Review times, updating details, or withdrawing an application.' },
    { icon: 'shield', title: 'Privacy and your data', body: 'Access, correct or delete your data, or remove your likeness.' },
  ],
  prelaunch: [
    { icon: 'rocket', title: 'The waitlist', body: 'Your early-access spot, beta invitations and launch timing.' },
    { icon: 'star', title: 'Founding talent', body: '35% royalties for life, the 30 founding spots and how to apply.' },
    { icon: 'users', title: 'Partnerships and press', body: 'Brands, agencies and journalists who want to talk before launch.' },
    { icon: 'shield', title: 'Privacy and your data', body: 'Access, correct or delete your data at any time.' },
  ],
};

/** The contact page of each layout: /contact, /founding-talent-contact, /pre-launch-contact. */
function ContactPage({ area }: { area: SiteArea }) {
  usePageTitle('Contact');
  const { contactEmail } = useConfig();
  const links = AREA_LINKS[area];

  return (
    <div className="contact-page" data-testid="contact-page">
      <div className="container contact-page__inner">
        <header className="contact-page__header">
          {links.back && <BackLink {...links.back} />}
          <p className="eyebrow">Contact</p>
          <h1>Contact us</h1>
          <p className="lead">
            Questions about {BRAND_NAME}, licensing your likeness or creating with real talent? Send us a message and we
            will typically reply <strong data-testid="contact-response-time">{CONTACT_RESPONSE_TIME}</strong>.
          </p>
        </header>

        <div className="contact-page__grid">
          <ContactForm />

          <aside className="contact-page__aside" aria-label="Other ways to reach us">
            <div className="card contact-info">
              <h2 className="contact-info__title">Reach us directly</h2>
              <ul className="contact-info__list">
                <li>
                  <span className="icon-circle" aria-hidden="true">
                    <Icon name="mail" size={20} />
                  </span>
                  <div>
                    <h3>Email</h3>
                    <p>
                      <a href={`mailto:${contactEmail}`} data-testid="contact-email-link">
                        {contactEmail}
                      </a>
                    </p>
                  </div>
                </li>
                <li>
                  <span className="icon-circle" aria-hidden="true">
                    <Icon name="bell" size={20} />
                  </span>
                  <div>
                    <h3>Response time</h3>
                    <p>Typically {CONTACT_RESPONSE_TIME}.</p>
                  </div>
                </li>
              </ul>
            </div>

            <div className="card contact-topics">
              <h2 className="contact-info__title">We can help with</h2>
              <ul className="contact-topics__list">
                {TOPICS[area].map((topic) => (
                  <li key={topic.title}>
                    <span className="icon-badge icon-badge--plum contact-topics__icon" aria-hidden="true">
                      <Icon name={topic.icon} size={20} />
                    </span>
                    <div>
                      <h3>{topic.title}</h3>
                      <p>{topic.body}</p>
                    </div>
                  </li>
                ))}
              </ul>
              <p className="contact-topics__privacy">
                We use your details only to answer your message. See our <Link to={links.privacy}>Privacy Policy</Link>.
              </p>
            </div>
          </aside>
        </div>
      </div>
    </div>
  );
}

export function MainContactPage() {
  return <ContactPage area="main" />;
}

export function FoundingTalentContactPage() {
  return <ContactPage area="founding" />;
}

export function PreLaunchContactPage() {
  return <ContactPage area="prelaunch" />;
}
