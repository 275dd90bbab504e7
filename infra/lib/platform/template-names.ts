// Names and values both the stack (infra/lib) and the local twin (infra/local) read. Nothing here
// imports aws-cdk-lib: the twin starts from the cached synthesis (decision 034) and loads no CDK
// module unless it has to synthesize.
import * as path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
/** Template metadata key naming a function's source; the local twin runs that file. */
export const ENTRY_METADATA = 'app:entry';
/** Template metadata listing packages installed beside the bundle (native ones such as sharp). */
export const NODE_MODULES_METADATA = 'app:nodeModules';

/**
 * Template metadata key on an `AWS::DynamoDB::Table` naming its seed file (relative to the
 * repository root). The local twin loads that file into the table after creating it; in AWS,
 * `SeedItems` puts the same items with a custom resource.
 */
export const SEED_METADATA = 'app:seed';

/**
 * Viewer-request CloudFront Function: the site's build writes each page as `<path>/index.html`
 * (web/scripts/prerender.ts), so `/first-200` is answered from `/first-200/index.html` and `/` from
 * `/index.html`. Paths with a file extension pass through. The local twin runs this same code
 * (infra/local/static-sites.ts). Kept to ES5 for the cloudfront-js runtime.
 */
export const DIRECTORY_INDEX_FUNCTION = `function handler(event) {
  var request = event.request;
  var uri = request.uri;
  if (uri.charAt(uri.length - 1) === '/') {
    request.uri = uri + 'index.html';
  } else if (uri.lastIndexOf('.') < uri.lastIndexOf('/')) {
    request.uri = uri + '/index.html';
  }
  return request;
}`;

/**
 * The empty app, answered (with 200) for every path that has no file: pages with parameters such as
 * /talent/<id>, and unknown paths, which the app renders as its 404. The web build writes it; for a
 * build without one (the console), deploy() uploads index.html under this name.
 */
export const APP_SHELL_PAGE = '/app-shell.html';
