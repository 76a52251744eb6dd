// The browser suite: builds the site (dist/site), then runs every
// tests/e2e/*.test.mjs, one after another (each starts its own Chromium),
// prints each file's wall time, and exits non-zero if any failed.
// `npm run test:e2e` and tests/run.sh both call this, so they run the same
// files.
// Usage: node tests/e2e/run.mjs [--no-build] [name ...]
//   name: run only these files (katex-fonts or tests/e2e/katex-fonts.test.mjs).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const root = fileURLToPath(new URL('../../', import.meta.url));
const args = process.argv.slice(2);
const build = !args.includes('--no-build');
const names = args.filter((arg) => arg !== '--no-build').map((arg) => basename(arg).replace(/\.test\.mjs$/, ''));

const all = readdirSync(here)
  .filter((file) => file.endsWith('.test.mjs'))
  .sort();
const unknown = names.filter((name) => !all.includes(`${name}.test.mjs`));
if (unknown.length > 0) {
  console.error(`no such browser test: ${unknown.join(', ')} (there are: ${all.join(', ')})`);
  process.exit(2);
}
const files = names.length > 0 ? all.filter((file) => names.includes(file.replace(/\.test\.mjs$/, ''))) : all;

const started = performance.now();
const seconds = (since) => ((performance.now() - since) / 1000).toFixed(1);
const timings = [];
if (build) {
  const { status } = spawnSync('npx', ['vite', 'build', '--config', 'web/vite.config.js', '--logLevel', 'warn'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (status !== 0) {
    console.error('the site did not build');
    process.exit(1);
  }
  timings.push(`${seconds(started).padStart(7)} s  vite build of dist/site`);
}

const failed = [];
for (const file of files) {
  console.log(`\n--- ${file}`);
  const begun = performance.now();
  const { status, signal } = spawnSync(process.execPath, [`${here}${file}`], { cwd: root, stdio: 'inherit' });
  if (status !== 0) failed.push(`${file} (${signal ?? `exit ${status}`})`);
  timings.push(`${seconds(begun).padStart(7)} s  ${file}${status !== 0 ? ' (failed)' : ''}`);
}
console.log(`\nwall time per file:\n${timings.join('\n')}\n${seconds(started).padStart(7)} s  in all`);
console.log(
  failed.length === 0
    ? `\nbrowser tests: ${files.length} of ${files.length} files passed`
    : `\nbrowser tests: ${failed.length} of ${files.length} files failed: ${failed.join(', ')}`,
);
process.exit(failed.length === 0 ? 0 : 1);
