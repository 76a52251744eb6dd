// The npm packages the app tests (tests/pack/*-app.test.mjs) and the site-generator tests
// (tests/integrations/) install besides posenc, and the npm cache each installs through.
// `node tests/pack/npm-packages.mjs` fills those caches ahead: tests/run.sh starts it while the
// C++ builds keep the cores busy, so that the tests' own installs (--prefer-offline) find every
// package in their cache instead of waiting on the registry.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const repo = fileURLToPath(new URL('../..', import.meta.url));

export const VITE_VERSION = '8.3.8';
export const WEBPACK_VERSION = '5.113.0';
export const WEBPACK_CLI_VERSION = '6.0.1';
export const HEXO = ['hexo@8.1.2', 'hexo-renderer-marked@7.0.1', 'hexo-server@3.0.0'];
export const VITEPRESS = 'vitepress@1.6.4';
// Astro 5 is the last major that runs on Node 20 (6 and later want Node 22).
export const ASTRO = ['astro@5.18.2', '@astrojs/mdx@4.3.9'];

/** The flags of every test install; the app tests use npm's own cache. */
export const INSTALL_FLAGS = ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'];
// The site-generator tests' cache: inside the repository's build/ (git-ignored), never the user's ~/.npm.
export const INTEGRATIONS_NPM_CACHE = join(repo, 'build/integrations/npm-cache');

/** Each install a test makes, without posenc: its packages and the npm flags that choose its cache. */
const INSTALLS = [
  { packages: [`vite@${VITE_VERSION}`], cache: [] },
  { packages: [`webpack@${WEBPACK_VERSION}`, `webpack-cli@${WEBPACK_CLI_VERSION}`], cache: [] },
  { packages: HEXO, cache: ['--cache', INTEGRATIONS_NPM_CACHE] },
  { packages: [VITEPRESS], cache: ['--cache', INTEGRATIONS_NPM_CACHE] },
  { packages: ASTRO, cache: ['--cache', INTEGRATIONS_NPM_CACHE] },
];

if (import.meta.url === `file://${process.argv[1]}`) {
  const exec = promisify(execFile);
  const started = performance.now();
  // One at a time: the downloads share the network, and unpacking would take a core from the builds.
  for (const { packages, cache } of INSTALLS) {
    const scratch = mkdtempSync(join(tmpdir(), 'posenc-npm-cache-'));
    try {
      writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true }));
      await exec('npm', [...INSTALL_FLAGS, ...cache, ...packages], { cwd: scratch, timeout: 600000 });
      console.log(`in the npm cache: ${packages.join(', ')}`);
    } catch (error) {
      // Not a test: the test's own install then downloads what is missing (and reports a failure).
      console.log(`could not fill the npm cache with ${packages.join(', ')}: ${error.message.split('\n')[0]}`);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  }
  console.log(`npm caches filled in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}
