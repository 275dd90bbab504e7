import { Link } from 'react-router';
import { BRAND_NAME } from '../../brand';
import type { AreaLinks } from '../../lib/siteAreas';
import type { LegalSection } from './LegalDocument';

/** What the shared policy text needs from the page that shows it. */
export interface LegalTextContext {
  contactEmail: string;
  links: AreaLinks;
}

function Mail({ email }: { email: string }) {
  return <a href={`mailto:${email}`}>{email}</a>;
}

/** One Privacy Policy for every layout; only the links differ (they stay within the layout). */
export function privacyIntro({ contactEmail }: LegalTextContext) {
  return (
    <p className="lead">
      {BRAND_NAME} is built on consent. This policy explains what personal data we collect, why, how we protect the
      photos you trust us with, and how to use your rights. Questions? Email <Mail email={contactEmail} />.
    </p>
  );
}

export function privacySummary({ contactEmail }: LegalTextContext) {
  return [
    <>
      <strong>Your photos are private.</strong> We use them only to review your application and, with your consent, to
      train your own likeness model. We never publish or sell them.
    </>,
    <>
      <strong>You can remove your likeness at any time</strong>, unless a frozen-likeness contract you signed with a
      brand is still in force.
    </>,
    <>
      <strong>We never sell your personal data</strong> and we do not use advertising trackers.
    </>,
    <>
      <strong>You are in control.</strong> Ask to see, correct, export or delete your data by emailing{' '}
      <Mail email={contactEmail} />.
    </>,
  ];
}

export function privacySections({ contactEmail, links }: LegalTextContext): LegalSection[] {
  return [
    {
      id: 'who-we-are',
      title: 'Who we are',
      content: (
        <>
          <p>
            {BRAND_NAME} runs an ethical AI image marketplace. Talent license their likeness to train AI and earn
            royalties; clients such as creators, brands and agencies buy credits and generate commercially licensed
            images of a chosen talent.
          </p>
          <p>
            This policy covers our website, the early-access waitlist, talent and founding-talent applications, client
            and talent accounts, and the contact form. {BRAND_NAME} decides how and why this data is used (we are the
            &ldquo;controller&rdquo;). You can reach us at <Mail email={contactEmail} />.
          </p>
        </>
      ),
    },
    {
      id: 'information-we-collect',
      title: 'Information we collect',
      content: (
        <>
          <p>We collect only what we need for the part of {BRAND_NAME} you use:</p>
          <dl className="legal-dl">
            <dt>Waitlist</dt>
            <dd>
              Your email address, first name, what kind of creator you are (for example an agency or a freelancer) and
              whether you want product updates.
            </dd>
            <dt>Talent and founding-talent applications</dt>
            <dd>
              Your full name, email, phone number (optional), age, city and country, what you tell us about yourself and
              why you want to join, any portfolio or social links, the industries you exclude (religion, politics,
              alcohol), your consent and agreement choices, and your training photos.
            </dd>
            <dt>Client accounts</dt>
            <dd>
              Your name, email, account type, plan and credit balance, the prompts you write, the talent you choose and
              the images you generate. Card payments are handled by our payment provider; we never see or store full
              card numbers.
            </dd>
            <dt>Talent accounts</dt>
            <dd>
              Once you are accepted: your payout details, the tax information we must hold to pay royalties, and a
              record of every license of your likeness.
            </dd>
            <dt>Contact messages</dt>
            <dd>Your name, email, subject and message, and the page you wrote from.</dd>
            <dt>Technical data</dt>
            <dd>
              Your IP address, browser type and request logs, which we keep to secure and run the service, and anonymous
              counts of sign-ups and applications.
            </dd>
          </dl>
        </>
      ),
    },
    {
      id: 'photos-and-likeness',
      title: 'Your photos and likeness',
      content: (
        <>
          <p>
            We treat the photos you submit, and any AI model trained on them, as sensitive personal data. They get the
            strictest handling we have:
          </p>
          <ul>
            <li>
              <strong>Private by default.</strong> Your photos are kept in private, encrypted storage. They are never
              shown in the public Talent Library, never shared with clients and never published.
            </li>
            <li>
              <strong>Two uses only.</strong> We use your photos to review your application (checking that they follow
              our photo guide and show you) and, only if you gave your explicit consent and your application is accepted,
              to train your personal likeness model.
            </li>
            <li>
              <strong>Nothing else.</strong> We never use your photos to train general-purpose AI models, never sell them
              and never use them to recognise you anywhere else.
            </li>
            <li>
              <strong>Few hands.</strong> Only the small team that reviews applications can open them, and that access
              is logged. The computing provider that trains your model does so under a contract that forbids any other
              use.
            </li>
            <li>
              <strong>Your limits apply.</strong> Clients see only images generated by your model, and we never license
              your likeness for an industry you excluded.
            </li>
          </ul>
        </>
      ),
    },
    {
      id: 'face-data',
      title: 'ID verification and face data (biometric data)',
      content: (
        <>
          <p>
            To make sure every likeness on {BRAND_NAME} belongs to a real adult who said yes, we ask each talent applicant
            to verify their ID, and, only with your separate consent, we check that the photos of your application all
            show you. Face data is biometric data, so we ask for that consent on its own.
          </p>
          <dl className="legal-dl">
            <dt>Verifying your ID</dt>
            <dd>
              After you confirm your email and sign the consent, you verify your ID on a page of Stripe, the company that
              also handles our payments, acting as our service provider. You take a photo of your passport, national ID
              card or driving licence and, if you agreed to face checks, a selfie. Stripe checks that the document is
              genuine and, with a selfie, that the selfie is a live picture of the person on the document.
            </dd>
            <dt>What Stripe holds</dt>
            <dd>
              The pictures of your document, its number, your date of birth as it is on the document and, with face
              checks, your selfie. Stripe keeps them for us until we have them deleted: when your application is declined,
              and when you ask us to erase your data. As a verification provider, Stripe may keep what the law requires of
              it (for example records it must keep against fraud) for as long as that law says.
            </dd>
            <dt>What we keep of it</dt>
            <dd>
              Your name as it is on the document, to compare with the name you applied with; whether you were 18 or older
              on the day of the check, with that day (not your date of birth); each attempt&rsquo;s result and, when it
              did not go through, Stripe&rsquo;s reason; and, with face checks, your selfie and the result of comparing it
              with your photos. We never keep the pictures of your document, its type or its number. An applicant under
              18 is told so and their application ends; their photos are deleted.
            </dd>
            <dt>What is analysed</dt>
            <dd>
              With your consent to face checks: the faces in the photos of your application, and in the selfie you take
              on Stripe&rsquo;s page. Our software finds each face and turns it into a face descriptor: a list of numbers
              that describes the face, used to compare it with your other photos and with your selfie. It also checks
              that each face is large, sharp and bright enough for training, that no photo repeats another, and that the
              selfie is not a copy of a photo. It infers nothing else about you: not your age, gender, ethnicity or mood.
            </dd>
            <dt>Why</dt>
            <dd>
              Only to confirm that you are an adult, that every photo shows the same person and that this person is you,
              so that nobody can license someone else&rsquo;s likeness, and to tell you which photos cannot be used and
              why. A reviewer sees the results (for example &ldquo;another person&rdquo; on a photo, whether the name on
              your ID matches, or whether your selfie matches your photos), and a person makes every decision on your
              application.
            </dd>
            <dt>Your separate consent</dt>
            <dd>
              We ask for the consent to face checks on its own, before anything is analysed, and nothing is ticked for
              you. If you say no, no face data is created: you verify your ID with the document alone, without a selfie,
              and a reviewer compares your photos by hand. You can withdraw this consent at any time, as easily as you
              gave it: on the page where you gave it (the link in your confirmation email), in your Talent Portal under
              &ldquo;Face data&rdquo;, or by emailing <Mail email={contactEmail} />. Your selfie and face descriptors
              are then deleted at once, nothing about your face is analysed again, and a reviewer compares your photos by
              hand. That a check had failed before you withdrew is kept, without any face data.
            </dd>
            <dt>How it is protected</dt>
            <dd>
              Our face analysis runs in our own systems; no outside face recognition service sees your photos. Face
              descriptors and your selfie are stored encrypted, and only for this check: we never use them to recognise
              you anywhere else, never use them to train any AI model, and never sell, lease, trade or share them or
              profit from them in any other way. We disclose them only where the law requires.
            </dd>
            <dt>When it is deleted</dt>
            <dd>
              Your selfie and face descriptors go together with your photos: within 30 days after an application is
              declined, when you ask us to delete your data, and when you remove your likeness. When you withdraw your
              consent to face checks, your face data is deleted at once and your photos stay with your application. What
              Stripe holds is deleted when we have Stripe delete it (see above), and we record when. The record of your
              signed consent (the version of the text, the name you typed, the time, and fingerprints of your photo files
              and selfie from which no picture or face can be rebuilt) is kept as proof of your consent, with the date you
              withdrew it.
            </dd>
            <dt>The law</dt>
            <dd>
              Under the GDPR and the UK GDPR, face data used to identify a person is a special category of personal data
              (Article 9); we process it only with your explicit consent (Article 9(2)(a)). Under the Illinois Biometric
              Information Privacy Act (BIPA) and similar US state laws, this section is our written policy on biometric
              data and its retention, and the consent you sign is your written release.
            </dd>
          </dl>
        </>
      ),
    },
    {
      id: 'how-we-use-information',
      title: 'How we use information',
      content: (
        <>
          <p>Each use has a legal basis:</p>
          <ul>
            <li>
              <strong>Running the waitlist and sending the updates you asked for</strong>: your consent, which you can
              withdraw at any time, and our legitimate interest in managing early access fairly.
            </li>
            <li>
              <strong>Reviewing applications and training your likeness model</strong>: your explicit consent, and
              steps you asked us to take before entering a contract with us.
            </li>
            <li>
              <strong>Providing accounts, credits and image licences</strong>: our contract with you.
            </li>
            <li>
              <strong>Calculating and paying royalties every month, and keeping financial records</strong>: our
              contract with you and our legal obligations.
            </li>
            <li>
              <strong>Answering your messages</strong>: our legitimate interest in replying to you.
            </li>
            <li>
              <strong>Keeping the service secure and enforcing our terms</strong>: our legitimate interests and legal
              obligations.
            </li>
          </ul>
          <p>
            No decision about you that matters is made by a machine alone: a person reviews every talent application.
          </p>
        </>
      ),
    },
    {
      id: 'sharing',
      title: 'Who we share information with',
      content: (
        <>
          <p>We never sell personal data. We share it only with:</p>
          <ul>
            <li>
              <strong>Service providers</strong> acting on our instructions: cloud hosting and storage, email delivery,
              the computing provider that trains and runs likeness models, payment processors, and Stripe, which verifies
              talent applicants&rsquo; IDs (see &ldquo;ID verification and face data&rdquo;). Contracts bind them to
              protect your data and use it only for us.
            </li>
            <li>
              <strong>Clients</strong>, who see an accepted talent&rsquo;s public profile (name, profile image, tagline
              and tags) and the images they generate. They never see training photos, contact details, age or payout
              information.
            </li>
            <li>
              <strong>Authorities</strong>, when the law requires it or to protect someone&rsquo;s safety.
            </li>
            <li>
              <strong>A successor</strong>, if {BRAND_NAME} is merged or acquired. This policy keeps protecting your
              data, and we will tell you before anything changes.
            </li>
          </ul>
        </>
      ),
    },
    {
      id: 'royalty-records',
      title: 'Royalty and payment records',
      content: (
        <p>
          Royalties are calculated for each calendar month and paid monthly. To do that we keep a record of every license
          of your likeness, the credits spent and the royalties earned and paid. Tax and accounting law requires us to
          keep these records for a period after payment, even if you later remove your likeness.
        </p>
      ),
    },
    {
      id: 'retention',
      title: 'How long we keep information',
      content: (
        <ul>
          <li>
            <strong>Waitlist</strong>: until you unsubscribe or ask us to delete it, and no longer than 12 months after
            launch.
          </li>
          <li>
            <strong>Applications that are declined or withdrawn</strong>: photos are deleted within 30 days of the
            decision; other details within 12 months.
          </li>
          <li>
            <strong>Accepted talent</strong>: photos and your likeness model are kept while your likeness is on{' '}
            {BRAND_NAME} and deleted within 30 days of its removal.
          </li>
          <li>
            <strong>Client accounts and contact messages</strong>: while your account is open or the conversation is
            active, and up to 24 months after.
          </li>
          <li>
            <strong>Financial records</strong>: as long as the law requires, usually up to 7 years.
          </li>
          <li>
            <strong>Security logs</strong>: up to 12 months.
          </li>
        </ul>
      ),
    },
    {
      id: 'removing-your-likeness',
      title: 'Removing your likeness',
      content: (
        <>
          <p>
            You can withdraw your consent and remove your likeness at any time by emailing <Mail email={contactEmail} />{' '}
            (or, once it opens, from your talent portal). When you do:
          </p>
          <ul>
            <li>we take your profile out of the Talent Library and stop new images of you straight away;</li>
            <li>we delete your training photos and your likeness model within 30 days;</li>
            <li>
              images clients generated and licensed before then stay licensed to them, and we keep the royalty records
              the law requires.
            </li>
          </ul>
          <p>
            <strong>The one exception is a frozen-likeness contract.</strong> If you signed an exclusive contract with a
            brand that freezes your likeness, we remove it when that contract ends, and we tell you when that will be.
            Founding talent who remove their likeness give up the 35% lifetime royalty rate.
          </p>
        </>
      ),
    },
    {
      id: 'your-rights',
      title: 'Your rights',
      content: (
        <>
          <p>
            Depending on where you live (for example under the GDPR, the UK GDPR or US state privacy laws), you have the
            right to:
          </p>
          <ul>
            <li>access the personal data we hold about you and get a copy;</li>
            <li>have inaccurate data corrected;</li>
            <li>have your data deleted;</li>
            <li>restrict or object to how we use it, including for updates and marketing;</li>
            <li>receive your data in a portable format;</li>
            <li>withdraw your consent at any time (this does not affect what we did lawfully before);</li>
            <li>complain to your data protection authority.</li>
          </ul>
          <p>
            To use any of these rights, email <Mail email={contactEmail} /> from the address you used with us. It is
            free. We may ask you to confirm your identity, and we reply within one month (we will tell you if a complex
            request needs longer).
          </p>
        </>
      ),
    },
    {
      id: 'security',
      title: 'How we protect your data',
      content: (
        <>
          <p>
            Data is encrypted in transit and at rest. Photos go straight from your browser into private storage through
            short-lived, single-use upload links. Staff and systems get only the access their job needs, and access to
            photos is logged and reviewed.
          </p>
          <p>
            No system is perfectly secure. If a breach affects your data, we will tell you and the authorities as the law
            requires.
          </p>
        </>
      ),
    },
    {
      id: 'international-transfers',
      title: 'International transfers',
      content: (
        <p>
          Our service providers may process data in other countries. When data leaves the UK or the European Economic
          Area, we protect it with an adequacy decision or the standard contractual clauses approved for that purpose.
        </p>
      ),
    },
    {
      id: 'cookies',
      title: 'Cookies and similar technologies',
      content: (
        <p>
          We use only what the site needs to work, such as keeping you signed in once accounts open. We use no
          advertising cookies and no cross-site trackers. We count sign-ups and applications anonymously to see how the
          site is doing.
        </p>
      ),
    },
    {
      id: 'children',
      title: 'Children',
      content: (
        <p>
          {BRAND_NAME} is for adults. You must be 18 or older to apply as talent or to open an account, and we do not
          knowingly collect data from anyone younger. If you think a child has sent us information, contact
          us and we will delete it. Generating images that depict minors is forbidden.
        </p>
      ),
    },
    {
      id: 'changes',
      title: 'Changes to this policy',
      content: (
        <p>
          We post updates on this page and change the date at the top. If a change affects how we use your photos or
          likeness, we email you before it takes effect and ask for your consent again where the law requires.
        </p>
      ),
    },
    {
      id: 'contact-us',
      title: 'Contact us',
      content: (
        <p>
          Email <Mail email={contactEmail} /> or use our <Link to={links.contact}>contact form</Link>. We typically reply
          within 24 hours.
        </p>
      ),
    },
  ];
}
