// The checks of one test script: each prints `ok - name (time)` or
// `FAIL - name (time): why`, and `finish` prints the closing
// `N passed, N failed` line that CI reads and exits non-zero on failure.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical violations in `page`, each as "rule (impact): its first three targets". */
export async function axeViolations(page) {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map(
        (v) =>
          `${v.id} (${v.impact}): ${v.nodes
            .slice(0, 3)
            .map((n) => n.target.join(' '))
            .join(', ')}`,
      );
  });
}
let passed = 0;
let failed = 0;

/** Runs one named check; body may return a detail string to print. */
export async function check(name, body) {
  const started = performance.now();
  const took = () => `(${((performance.now() - started) / 1000).toFixed(1)} s)`;
  try {
    const detail = await body();
    passed++;
    console.log(`ok - ${name} ${took()}${detail ? ` — ${detail}` : ''}`);
  } catch (error) {
    failed++;
    console.log(`FAIL - ${name} ${took()}: ${String(error?.stderr || error?.message || error).slice(0, 2000)}`);
  }
}

export function assert(condition, message) {
  if (!condition) throw new Error(message);
}

/** Prints the closing line (after `label: ` when given) and exits. */
export function finish(label = '') {
  console.log(`${label ? `${label}: ` : ''}${passed} passed, ${failed} failed`);
  process.exit(failed === 0 ? 0 : 1);
}

/**
 * A new page that records console errors, uncaught exceptions and CSP
 * violations in `page.problems`, and every request URL in `page.requests`.
 */
export async function watchedPage(context) {
  const page = await context.newPage();
  page.problems = [];
  page.requests = [];
  page.on('request', (request) => page.requests.push(request.url()));
  page.on('console', (message) => {
    if (message.type() === 'error') page.problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => page.problems.push(`exception: ${error.message}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return page;
}

/** Runs `run(page, context)` in a fresh context of `browser` (a watched page in it), closed afterwards. */
export async function inFreshPage(browser, run) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  try {
    return await run(await watchedPage(context), context);
  } finally {
    await context.close();
  }
}

/** Waits for the page's first-plot mark. */
export const firstPlotShown = (page, { timeout = 30000 } = {}) =>
  page.waitForFunction(() => performance.getEntriesByName('posenc:first-plot').length > 0, null, { timeout });

/**
 * Elements that markup would create from a payload, in the document and every shadow root. The
 * page's own inline scripts (their hash is in its CSP, as only the build puts it there) are not.
 */
export function injected(target) {
  return target.evaluate(async () => {
    const policy = document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.content ?? '';
    const allowed = new Set(policy.match(/'sha256-[^']+'/g) ?? []);
    const hashOf = async (text) => {
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
      return `'sha256-${btoa(String.fromCharCode(...digest))}'`;
    };
    const found = [];
    const visit = async (rootNode) => {
      for (const node of rootNode.querySelectorAll(
        'img, script:not([src]), iframe, object, embed, [onerror], [onload]',
      )) {
        if (node.localName === 'script' && allowed.has(await hashOf(node.textContent))) continue;
        found.push(node.outerHTML.slice(0, 80));
      }
      for (const node of rootNode.querySelectorAll('*')) if (node.shadowRoot) await visit(node.shadowRoot);
    };
    await visit(document);
    return { found, pwned: window.__pwned ?? null };
  });
}
