// The browser suite: builds the site (dist/site), then runs every
// tests/e2e/*.test.mjs (each starts its own Chromium): the files that time
// the page (ALONE) one after another with nothing beside them, then the others
// POSENC_E2E_JOBS at a time (default 2; a file beside another has its output
// printed whole when it ends). Prints each file's wall time, and exits
// non-zero if any failed.
// `npm run test:e2e` and tests/run.sh both call this, so they run the same
// files.
// Usage: node tests/e2e/run.mjs [--no-build] [name ...]
//   name: run only these files (katex-fonts or tests/e2e/katex-fonts.test.mjs).
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { basename } from 'node:path';
import { fileURLToPath } from 'node:url';

// Files with checks that measure time on the page (main-thread tasks, frame gaps, a fault reported
// within its patience, what comes before a held-back .wasm): a second Chromium beside them would
// take their core.
const ALONE = ['faults', 'page-load', 'rope-cache-check'];

const here = fileURLToPath(new URL('.', import.meta.url));
const root = fileURLToPath(new URL('../../', import.meta.url));
const args = process.argv.slice(2);
const build = !args.includes('--no-build');
const names = args.filter((arg) => arg !== '--no-build').map((arg) => basename(arg).replace(/\.test\.mjs$/, ''));
const jobs = Math.max(1, Number(process.env.POSENC_E2E_JOBS) || 2);

const all = readdirSync(here)
  .filter((file) => file.endsWith('.test.mjs'))
  .sort();
const unknown = names.filter((name) => !all.includes(`${name}.test.mjs`));
if (unknown.length > 0) {
  console.error(`no such browser test: ${unknown.join(', ')} (there are: ${all.join(', ')})`);
  process.exit(2);
}
const files = names.length > 0 ? all.filter((file) => names.includes(file.replace(/\.test\.mjs$/, ''))) : all;
const alone = (file) => ALONE.includes(file.replace(/\.test\.mjs$/, ''));

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
/**
 * Runs one file. Beside others (`beside`), its output is printed whole when it ends; alone, as it
 * comes.
 */
function runFile(file, beside) {
  return new Promise((resolve) => {
    const begun = performance.now();
    if (!beside) console.log(`\n--- ${file}`);
    const child = spawn(process.execPath, [`${here}${file}`], {
      cwd: root,
      stdio: beside ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('close', (status, signal) => {
      if (beside) console.log(`\n--- ${file}\n${output.trimEnd()}`);
      if (status !== 0) failed.push(`${file} (${signal ?? `exit ${status}`})`);
      const note = `${beside ? ' (beside others)' : ''}${status !== 0 ? ' (failed)' : ''}`;
      timings.push(`${seconds(begun).padStart(7)} s  ${file}${note}`);
      resolve();
    });
  });
}

for (const file of files.filter(alone)) await runFile(file, false);
const queue = files.filter((file) => !alone(file));
const lanes = Math.min(jobs, queue.length);
await Promise.all(
  Array.from({ length: lanes }, async () => {
    while (queue.length > 0) await runFile(queue.shift(), lanes > 1);
  }),
);

console.log(`\nwall time per file:\n${timings.join('\n')}\n${seconds(started).padStart(7)} s  in all`);
console.log(
  failed.length === 0
    ? `\nbrowser tests: ${files.length} of ${files.length} files passed`
    : `\nbrowser tests: ${failed.length} of ${files.length} files failed: ${failed.join(', ')}`,
);
process.exit(failed.length === 0 ? 0 : 1);
