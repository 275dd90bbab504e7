import { Link } from 'react-router';
import { BRAND_NAME, LAUNCH_YEAR } from '../../brand';
import type { LegalSection } from './LegalDocument';
import type { LegalTextContext } from './privacyPolicy';

function Mail({ email }: { email: string }) {
  return <a href={`mailto:${email}`}>{email}</a>;
}

/** One set of Terms for every layout; only the links differ (they stay within the layout). */
export function termsIntro({ links }: LegalTextContext) {
  return (
    <p className="lead">
      These terms set out how {BRAND_NAME} works for talent, who license their likeness, and for clients, who create
      with it. Please read them together with our <Link to={links.privacy}>Privacy Policy</Link>.
    </p>
  );
}

export function termsSummary() {
  return [
    <>
      <strong>You must be 18 or older</strong> to apply as talent or to use {BRAND_NAME}.
    </>,
    <>
      <strong>Talent keep their likeness.</strong> You license it to us so clients can create images of you, within
      the limits you set, and you earn royalties paid monthly.
    </>,
    <>
      <strong>Talent can leave at any time</strong>, unless a frozen-likeness contract they signed with a brand is
      still in force.
    </>,
    <>
      <strong>Clients buy credits</strong> and every plan includes a commercial-use licence, used within our
      acceptable use rules.
    </>,
    <>
      <strong>Joining the waitlist or applying is free</strong> and does not guarantee access or acceptance.
    </>,
  ];
}

export function termsSections({ contactEmail, links }: LegalTextContext): LegalSection[] {
  return [
    {
      id: 'agreement',
      title: 'Agreement to these terms',
      content: (
        <p>
          These Terms of Service govern your use of the {BRAND_NAME} website, the early-access waitlist, talent and
          founding-talent applications and, once it launches, the marketplace (together, the &ldquo;service&rdquo;). By
          using the service you agree to these terms and to our <Link to={links.privacy}>Privacy Policy</Link>. If you
          use the service for a company, you confirm that you can bind it to these terms.
        </p>
      ),
    },
    {
      id: 'eligibility',
      title: 'Eligibility',
      content: (
        <p>
          You must be at least 18 years old and able to enter a binding contract. Talent must be the only person shown
          in every photo they submit, and each person may apply once.
        </p>
      ),
    },
    {
      id: 'the-service',
      title: 'The service',
      content: (
        <p>
          {BRAND_NAME} is a marketplace that connects talent, who license their likeness, with clients, who generate
          commercially licensed AI images of that talent. The marketplace opens in {LAUNCH_YEAR}; until then the service
          consists of the waitlist and talent applications. Dates, features and prices may change before launch, and we
          will tell you about changes that matter to you.
        </p>
      ),
    },
    {
      id: 'accounts',
      title: 'Accounts',
      content: (
        <p>
          Keep your sign-in details secret and your information accurate. You are responsible for what happens under
          your account. Tell us straight away if you think someone else is using it.
        </p>
      ),
    },
    {
      id: 'talent',
      title: 'For talent: your likeness',
      content: (
        <>
          <ul>
            <li>
              <strong>Applying.</strong> You submit 30 to 80 recent photos of yourself (JPEG or PNG) that follow our
              photo guide. Applying is free. A person reviews every application and we may accept or decline it at our
              discretion. We aim to decide within 15 business days (15 to 20 business days for founding applications).
            </li>
            <li>
              <strong>You keep your likeness.</strong> You keep every right in your name, image and likeness.
            </li>
            <li>
              <strong>The licence you give us.</strong> If you are accepted, you give us a non-exclusive, worldwide
              licence, for as long as your likeness is on {BRAND_NAME}, to train a model of your likeness from your
              photos, to generate images of you when clients ask, and to license those images to clients.
            </li>
            <li>
              <strong>Your limits.</strong> We never license your likeness for an industry you excluded (religion,
              politics or alcohol) or for any use our acceptable use rules forbid.
            </li>
            <li>
              <strong>Your promises.</strong> The photos show you, you have the right to share them (including any
              photographer&rsquo;s permission) and they do not break anyone else&rsquo;s rights.
            </li>
          </ul>
        </>
      ),
    },
    {
      id: 'royalties',
      title: 'Royalties',
      content: (
        <>
          <p>
            Every time a client licenses an image of you, you earn a royalty: a share of what the client paid for it,
            after taxes and payment fees.
          </p>
          <table className="legal-table">
            <caption>Standard royalty rates, per calendar month</caption>
            <thead>
              <tr>
                <th scope="col">Licenses in the month</th>
                <th scope="col">Royalty</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <td>1 to 50</td>
                <td>20%</td>
              </tr>
              <tr>
                <td>51 to 200</td>
                <td>25%</td>
              </tr>
              <tr>
                <td>Over 200</td>
                <td>30%</td>
              </tr>
            </tbody>
          </table>
          <p>
            Each rate applies to the licenses within its band: in a month with 120 licenses, the first 50 earn 20% and
            the other 70 earn 25%.
          </p>
          <p>
            <strong>Founding talent</strong> earn 35% on every license, for life, instead of the standard rates. Only 30
            founding spots exist, for the first 30 applicants who meet our criteria, and only before launch.
          </p>
          <p>
            Royalties are paid monthly, for the previous calendar month, to the payout method in your account. Your talent
            portal shows every license and royalty. You are responsible for your own taxes.
          </p>
        </>
      ),
    },
    {
      id: 'removal-and-frozen-likeness',
      title: 'Removing your likeness and frozen-likeness contracts',
      content: (
        <>
          <p>
            <strong>You can remove your likeness at any time.</strong> We stop new images of you straight away and delete
            your photos and likeness model within 30 days. Licences clients received before then continue, and royalties
            you earned are paid in the next monthly payout. Removing your likeness ends founding-talent status and its 35%
            lifetime rate.
          </p>
          <p>
            <strong>Frozen-likeness contracts.</strong> A brand can ask to freeze your likeness: exclusive commercial
            rights, a custom-trained model, priority generation and removal from the public library. A freeze happens
            only under a separate written contract that you sign, which sets its term, fee and scope. While that contract
            is in force you cannot remove your likeness or license it to anyone else within its scope; when it ends, you
            can.
          </p>
        </>
      ),
    },
    {
      id: 'clients',
      title: 'For clients: credits and licences',
      content: (
        <ul>
          <li>
            <strong>Credits.</strong> One credit buys one image or one second of video. Each plan includes a monthly
            credit allowance; paid plans can buy extra credits at the plan&rsquo;s price, and the free plan needs an
            upgrade for more.
          </li>
          <li>
            <strong>Billing.</strong> Paid plans are billed monthly in advance until you cancel. Cancelling takes effect
            at the end of the billing period. A generation that fails does not use credits. Except where the law says
            otherwise, payments are not refundable.
          </li>
          <li>
            <strong>Commercial-use licence.</strong> Every plan includes a worldwide licence to use the images you
            generate for commercial and non-commercial purposes, within these terms and the talent&rsquo;s excluded
            industries. The licence continues if the talent later removes their likeness.
          </li>
          <li>
            <strong>What the licence does not include.</strong> You may not resell images as stock, use them to train
            other AI models, or suggest that the talent personally endorses anything unless they agreed to it in writing.
          </li>
        </ul>
      ),
    },
    {
      id: 'acceptable-use',
      title: 'Acceptable use',
      content: (
        <>
          <p>You must not use {BRAND_NAME} to create or share images that:</p>
          <ul>
            <li>are sexual, nude or sexually suggestive;</li>
            <li>depict, or appear to depict, anyone under 18;</li>
            <li>
              deceive people, such as fake news, fake events, or statements and endorsements the talent never made;
            </li>
            <li>defame, harass, demean or discriminate against the talent or anyone else;</li>
            <li>promote violence or illegal activity;</li>
            <li>fall within an industry the talent has excluded.</li>
          </ul>
          <p>
            You must also not upload photos of anyone but yourself, try to copy, extract or reverse-engineer likeness
            models, scrape the service, or get around its limits. If you break these rules we may remove images, suspend
            your account and cancel remaining credits.
          </p>
        </>
      ),
    },
    {
      id: 'intellectual-property',
      title: 'Content and intellectual property',
      content: (
        <p>
          The service, its software and the {BRAND_NAME} brand belong to us. Talent keep their likeness, clients receive
          the licence above for the images they generate, and the prompts you write stay yours (you let us process them to
          provide the service). Images are made by AI: they can contain mistakes, and similar images may be generated for
          other clients.
        </p>
      ),
    },
    {
      id: 'waitlist-and-founding-programme',
      title: 'Waitlist and founding programme',
      content: (
        <ul>
          <li>
            <strong>Waitlist.</strong> Joining is free and you are never obliged to buy. Spots are limited and offered in
            the order people sign up; the first 100 are invited to the beta. A spot does not guarantee access on any
            particular date.
          </li>
          <li>
            <strong>Founding talent.</strong> Applying is free. There are 30 founding spots, for the first 30 applicants
            who meet our criteria; acceptance is at our discretion. Founding talent earn 35% royalties for life, as set
            out above, and the talent portal opens at launch in {LAUNCH_YEAR}.
          </li>
        </ul>
      ),
    },
    {
      id: 'disclaimers',
      title: 'Disclaimers',
      content: (
        <p>
          We provide the service &ldquo;as is&rdquo;. We work hard to keep it available and accurate, but we do not
          promise that it will be uninterrupted or error-free, or that talent will reach any level of earnings. Nothing in
          these terms limits rights you have as a consumer that the law does not allow us to limit.
        </p>
      ),
    },
    {
      id: 'liability',
      title: 'Limitation of liability',
      content: (
        <p>
          As far as the law allows, we are not liable for indirect or consequential losses, lost profits or lost data,
          and our total liability for any claim is limited to the greater of what you paid us, or we paid you, in the 12
          months before the claim, and US$100. We do not exclude liability for death or personal injury caused by
          negligence, for fraud, or for anything else the law does not allow us to exclude.
        </p>
      ),
    },
    {
      id: 'termination',
      title: 'Suspension and termination',
      content: (
        <p>
          You can stop using the service and close your account at any time. We may suspend or close accounts that break
          these terms, with notice where that is reasonable. Royalties already earned are still paid, and licences already
          granted for generated images continue.
        </p>
      ),
    },
    {
      id: 'changes',
      title: 'Changes to these terms',
      content: (
        <p>
          We may update these terms. We post the new version here with a new date and, for significant changes, email you
          at least 30 days before they apply. If you keep using the service after that, the new terms apply to you.
        </p>
      ),
    },
    {
      id: 'contact-us',
      title: 'Contact us',
      content: (
        <p>
          Questions about these terms? Email <Mail email={contactEmail} /> or use our{' '}
          <Link to={links.contact}>contact form</Link>. We typically reply within 24 hours.
        </p>
      ),
    },
  ];
}
