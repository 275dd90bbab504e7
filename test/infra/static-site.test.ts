import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { Bucket } from 'aws-cdk-lib/aws-s3';
import { APP_SHELL_PAGE, DIRECTORY_INDEX_FUNCTION, StaticSite } from '../../infra/lib/platform/static-site';

/** The viewer-request function, run as CloudFront runs it: the request in, the request out. */
const directoryIndex = new Function(`${DIRECTORY_INDEX_FUNCTION}\nreturn handler;`)() as (e: { request: { uri: string } }) => { uri: string };
const rewrite = (uri: string) => directoryIndex({ request: { uri } }).uri;

describe('the directory-index function', () => {
  test('serves a page path from its prerendered index.html', () => {
    expect(rewrite('/')).toBe('/index.html');
    expect(rewrite('/first-200')).toBe('/first-200/index.html');
    expect(rewrite('/first-200/')).toBe('/first-200/index.html');
    expect(rewrite('/talent/jane-doe')).toBe('/talent/jane-doe/index.html');
  });

  test('leaves files alone', () => {
    for (const uri of ['/assets/start-abc.js', '/config.json', '/social/home.png', '/robots.txt', '/app-shell.html']) expect(rewrite(uri)).toBe(uri);
  });
});

function siteStack(deploy?: (site: StaticSite) => void) {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk-site-'));
  const app = new App({ outdir });
  const stack = new Stack(app, 'Sites');
  const site = new StaticSite(stack, 'WebSite', { connectSources: [], logBucket: new Bucket(stack, 'Logs') });
  deploy?.(site);
  return { template: Template.fromStack(stack), outdir, app };
}

describe('the distribution', () => {
  test('runs the function on every viewer request and answers a missing file with the app shell', () => {
    const { template } = siteStack();
    template.hasResourceProperties('AWS::CloudFront::Function', {
      FunctionCode: DIRECTORY_INDEX_FUNCTION,
      FunctionConfig: { Runtime: 'cloudfront-js-2.0' },
    });
    const [distribution] = Object.values(template.findResources('AWS::CloudFront::Distribution'));
    const config = distribution.Properties.DistributionConfig;
    expect(config.DefaultCacheBehavior.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [expect.stringMatching(/^WebSiteDirectoryIndex/), 'FunctionARN'] } },
    ]);
    expect(config.CustomErrorResponses).toEqual(
      [403, 404].map((code) => expect.objectContaining({ ErrorCode: code, ResponseCode: 200, ResponsePagePath: APP_SHELL_PAGE })),
    );
  });
});

describe('deploy()', () => {
  const BUILD_ORIGIN = 'http://127.0.0.1:4000';
  let dist: string;
  beforeAll(() => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'web-dist-'));
    const files: Record<string, string> = {
      'index.html': `<link rel="canonical" href="${BUILD_ORIGIN}/">`,
      'first-200/index.html': `<meta property="og:image" content="${BUILD_ORIGIN}/social/first-200.png">`,
      'app-shell.html': '<div id="root"></div>',
      'assets/start-abc.js': 'export {};',
      'prerender.json': JSON.stringify({ siteUrl: BUILD_ORIGIN, siteUrlFiles: ['index.html', 'first-200/index.html'] }),
    };
    for (const [file, content] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(dist, file)), { recursive: true });
      fs.writeFileSync(path.join(dist, file), content);
    }
  });
  afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

  test('uploads hashed assets for a year without pruning, then the pages revalidated on every load', () => {
    const { template } = siteStack((site) => site.deploy(dist, { stage: 'test' }, { siteUrl: 'https://humanly.example' }));
    const deployments = Object.entries(template.findResources('Custom::CDKBucketDeployment'));
    const assets = deployments.find(([id]) => id.startsWith('WebSiteDeployAssets'))![1];
    const pages = deployments.find(([id]) => /^WebSiteDeployCustomResource/.test(id))![1];
    expect(assets.Properties).toMatchObject({ DestinationBucketKeyPrefix: 'assets/', Prune: false, SystemMetadata: { 'cache-control': 'public, max-age=31536000, immutable' } });
    expect(pages.Properties).toMatchObject({ Exclude: ['assets/*'], SystemMetadata: { 'cache-control': 'no-cache' }, DistributionPaths: ['/*'] });
    expect(pages.DependsOn).toEqual(expect.arrayContaining([expect.stringMatching(/^WebSiteDeployAssets/)]));
  });

  test('points canonical and Open Graph URLs at the stage origin when the build named another', () => {
    const { outdir, app } = siteStack((site) => site.deploy(dist, {}, { siteUrl: 'https://humanly.example' }));
    app.synth();
    const staged = (file: string) =>
      fs
        .readdirSync(outdir)
        .map((d) => path.join(outdir, d, file))
        .filter((f) => fs.existsSync(f))
        .map((f) => fs.readFileSync(f, 'utf8'));
    expect(staged('first-200/index.html')).toEqual(['<meta property="og:image" content="https://humanly.example/social/first-200.png">']);
    expect(staged('index.html')).toContain('<link rel="canonical" href="https://humanly.example/">');
    expect(staged('index.html').join()).not.toContain(BUILD_ORIGIN);
  });
});
