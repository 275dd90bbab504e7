import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { devRuntimeConfig } from '../events/runtime-config';
import type { PrerenderOptions } from './scripts/prerender';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const configFile = fileURLToPath(import.meta.url);
const distDir = path.join(webRoot, 'dist');
/**
 * The SSR build only feeds the prerenderer, which deletes it: node_modules/.cache keeps it out of
 * git and beside the packages it imports; one directory per build, so parallel builds never share one.
 */
const ssrOutDir = path.join(webRoot, '..', 'node_modules', '.cache', 'web-prerender', `build-${process.pid}`);

/** Settings for the build-time render; /config.json replaces them in the browser (web/src/main.tsx). */
const DEFAULT_CONTACT_EMAIL = 'hello@humanly.example';
const siteUrl = (process.env.SITE_URL ?? 'http://127.0.0.1:4000').replace(/\/+$/, '');

/**
 * After the browser build: build web/src/entry-server.tsx for Node and write every route's HTML
 * (web/scripts/prerender.ts), so `vite build` alone produces the whole static site. It runs in its own
 * process (tsx), which loads a fresh copy of the app per route.
 */
function prerender(): Plugin {
  let outDir = distDir;
  return {
    name: 'prerender',
    apply: (config, env) => env.command === 'build' && !config.build?.ssr,
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir); // honours `vite build --outDir`
    },
    closeBundle(error?: Error) {
      if (error) return;
      const options: PrerenderOptions = {
        webRoot,
        distDir: outDir,
        ssrOutDir,
        configFile,
        siteUrl,
        config: {
          apiUrl: '',
          stage: 'prerender',
          contactEmail: process.env.WEB_CONTACT_EMAIL ?? DEFAULT_CONTACT_EMAIL,
          prelaunch: process.env.WEB_PRELAUNCH !== 'false',
        },
      };
      const tsx = createRequire(import.meta.url).resolve('tsx/cli');
      const run = spawnSync(process.execPath, [tsx, path.join(webRoot, 'scripts', 'prerender.ts'), JSON.stringify(options)], { stdio: 'inherit' });
      if (run.status !== 0) throw new Error('Prerendering failed (see above)');
    },
  };
}

/**
 * SSR build only: records which modules each page loads with import() while it renders, so the
 * prerendered HTML can preload those chunks and link their CSS (see entry-server.tsx).
 */
function trackDynamicImports(): Plugin {
  const srcDir = path.join(webRoot, 'src') + path.sep;
  return {
    name: 'track-dynamic-imports',
    enforce: 'pre',
    async transform(code, id) {
      if (!id.startsWith(srcDir) || !code.includes('import(')) return null;
      let out = '';
      let last = 0;
      for (const m of code.matchAll(/\bimport\(\s*(['"])([^'"]+)\1\s*\)/g)) {
        const resolved = await this.resolve(m[2], id);
        if (!resolved || resolved.external) continue;
        const key = path.relative(webRoot, resolved.id.split('?')[0]).split(path.sep).join('/');
        out += `${code.slice(last, m.index)}(globalThis.__PRERENDER_IMPORTS__?.add(${JSON.stringify(key)}), ${m[0]})`;
        last = m.index + m[0].length;
      }
      return last === 0 ? null : { code: out + code.slice(last), map: null };
    },
  };
}

/*
 * Small modules many pages share go in four chunks rather than the dozen tiny ones automatic splitting
 * makes: every chunk costs its imports, exports and file name in each page that loads it, often more
 * than the module itself (`npm run bench:site` prints the gzipped JS of each route).
 */
/**
 * Every page: the icons, the page title, the reduced-motion hook, the sections most pages compose,
 * what both layouts draw (logo, skip link, footer, scroll handling: the main layout is a chunk of its
 * own, which the pre-launch and founding pages never load), and the stored sign-in the main layout
 * and the pricing page read (a chunk of its own otherwise).
 */
const EVERY_PAGE =
  /[\\/]web[\\/]src[\\/](brand|components[\\/](Icon|Hero|IconCards|IconList|WhatHappensNext|Logo|ScrollManager|SiteFooter|SkipLink)|lib[\\/](usePageTitle|usePrefersReducedMotion|stored-sign-in))\.(tsx?|css)$/;
/** What every form shares: the field and the email rule. */
const FORMS = /[\\/]web[\\/]src[\\/](components[\\/]FormField|lib[\\/]email)\.(tsx?|css)$/;
/** What the two application forms share, loaded with their pages: sections, photo picker and upload (the report form has none of it). */
const APPLICATION_FORMS = /[\\/]web[\\/]src[\\/](components[\\/]application[\\/][A-Za-z]+|lib[\\/]application[\\/](photos|limits|useApplicationUpload|PhotoPicker|types))\.(tsx?|css)$/;
/** The offer pages' showcase: carousel, rotating word, sample talent, announcement banner, FAQ. */
const SHOWCASE = /[\\/]web[\\/]src[\\/]components[\\/](AnnouncementBanner|Carousel|Faq|RotatingWord|demo[\\/]sampleTalents)\.(tsx?|css)$/;

export default defineConfig(({ isSsrBuild }) => ({
  root: webRoot,
  base: '/',
  plugins: [
    react(),
    // `vite dev` answers /config.json itself; the deployment or the twin serve it otherwise.
    devRuntimeConfig(() => ({
      apiUrl: process.env.WEB_API_URL ?? 'http://127.0.0.1:3001',
      stage: 'dev',
      contactEmail: process.env.WEB_CONTACT_EMAIL ?? DEFAULT_CONTACT_EMAIL,
      prelaunch: true,
    })),
    isSsrBuild ? trackDynamicImports() : prerender()],
  build: isSsrBuild
    ? {
        outDir: ssrOutDir,
        emptyOutDir: true,
        sourcemap: false,
        // One file, so each route can load a fresh copy of the whole app (scripts/prerender.ts).
        rolldownOptions: { output: { entryFileNames: '[name].mjs', codeSplitting: false } },
      }
    : {
        outDir: distDir,
        emptyOutDir: true,
        sourcemap: true,
        // Maps source modules to chunks, for the prerenderer; it deletes the file when done.
        manifest: true,
        // Every browser the site supports has modulepreload; the polyfill would cost every page.
        modulePreload: {
          polyfill: false,
          /*
           * A lazy chunk's styles load with it (Vite adds them after this list), but not the scripts it
           * imports: the route tables, in every page's JavaScript, would otherwise list every lazy page's
           * chunks, about 1 KB gzipped on each page, to save one round trip on a navigation (the browser
           * fetches a chunk's imports as soon as it reads it). The HTML's own preloads stay as they are.
           */
          resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : []),
        },
        rolldownOptions: {
          // The prerender step (closeBundle) takes seconds by design; no "slow plugin" warning for it.
          checks: { bundlerTimings: false },
          // Contract constants (limits, texts) become literals where used, so small pages need not carry their module.
          optimization: { inlineConst: { mode: 'all', pass: 2 } },
          // Every page needs React and the router: one chunk, rather than the splinters automatic
          // splitting makes when a lazy chunk (e.g. the photo list) needs React but not the router.
          output: {
            codeSplitting: {
              groups: [
                { name: 'framework', test: /[\\/]node_modules[\\/](react|react-dom|react-router|scheduler)[\\/]/ },
                { name: 'every-page', test: EVERY_PAGE, includeDependenciesRecursively: false },
                { name: 'forms', test: FORMS, includeDependenciesRecursively: false },
                { name: 'application-forms', test: APPLICATION_FORMS, includeDependenciesRecursively: false },
                { name: 'showcase', test: SHOWCASE, includeDependenciesRecursively: false },
              ],
            },
          },
        },
      },
}));
