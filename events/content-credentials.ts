// Content Credentials (C2PA, decision 062): what the manifest signed into every delivered image
// says, shared by the delivery that writes it and the `/verify` page that reads it back.

/** The public page where anyone verifies a file's Content Credentials. */
export const VERIFY_PATH = '/verify';

/** The label of our license assertion in the manifest. */
export const CREDENTIALS_LICENSE_LABEL = 'com.humanly.license';
/** The software agent of the manifest's `c2pa.created` action (its version names the talent's model). */
export const CREDENTIALS_SOFTWARE_AGENT = 'Humanly';
/** The organization in the signing certificate's subject, production and test alike. */
export const CREDENTIALS_SIGNER_ORGANIZATION = 'Humanly';
/** The organizational unit that marks a test certificate (the twin's local CA issues only those). */
export const CREDENTIALS_TEST_UNIT = 'TEST certificate - not trusted';

/** Our license assertion's content: the license as its public page shows it. */
export interface CredentialsLicense {
  licenseId: string;
  talentId: string;
  talentName: string;
  /** The client the license was issued to, as the license page names them. */
  licensee: string;
  /** When the license was issued (ISO 8601). */
  issuedAt: string;
  /** What the license allows (the license page's scope). */
  scope: string;
  /** The public page that confirms the license. */
  licenseUrl: string;
  /** The page where anyone checks a file against its license. */
  checkUrl: string;
}
