// Runs the site-generator tests (tests/integrations/*.test.mjs) with one
// packed tarball: packs posenc once (npm pack builds the elements bundle,
// which parallel packs would overwrite under each other), then runs the tests
// POSENC_INTEGRATIONS_JOBS at a time (default 2: installs wait on the network,
// builds on the CPU), prints each one's output whole, and exits non-zero if
// any failed. Usage: node tests/integrations/run.mjs [name …]
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pack } from '../pack/app.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const wanted = process.argv.slice(2);
const tests = readdirSync(here)
  .filter((name) => name.endsWith('.test.mjs'))
  .filter((name) => wanted.length === 0 || wanted.includes(name.replace('.test.mjs', '')));
const jobs = Math.max(1, Number(process.env.POSENC_INTEGRATIONS_JOBS) || 2);
const started = performance.now();
const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(0)} s`;

const work = mkdtempSync(join(tmpdir(), 'posenc-integrations-'));
let failed = [];
try {
  const { tarball } = await pack(work);
  console.log(`packed ${tarball} (${seconds(started)})`);
  const runOne = (name) =>
    new Promise((resolve) => {
      const begun = performance.now();
      const child = spawn(process.execPath, [join(here, name)], {
        env: { ...process.env, POSENC_TARBALL: tarball },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (chunk) => (output += chunk));
      child.stderr.on('data', (chunk) => (output += chunk));
      child.on('close', (code) => {
        console.log(`\n--- ${name} (${seconds(begun)})\n${output.trimEnd()}`);
        if (code !== 0) failed.push(name);
        resolve();
      });
    });
  const queue = [...tests];
  await Promise.all(
    Array.from({ length: Math.min(jobs, queue.length) }, async () => {
      while (queue.length) await runOne(queue.shift());
    }),
  );
} catch (error) {
  failed = ['pack'];
  console.log(`npm pack failed: ${error.stderr || error.message}`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(`\nintegrations: ${tests.length - failed.length} of ${tests.length} passed in ${seconds(started)}`);
process.exit(failed.length ? 1 : 0);
