// Debian's Chromium, headless, as every browser test and benchmark starts it.
// The networking flags keep it from calling home (this machine has no network
// beyond the package registries, and tests must make no foreign requests).
import { chromium } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

export function launchChromium() {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/**
 * Runs `run()` with Chromium tracing `page` (the trace categories, comma-separated): its result
 * and every trace event recorded meanwhile.
 */
export async function traced(page, categories, run) {
  const cdp = await page.context().newCDPSession(page);
  const events = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
  const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.start', { categories, transferMode: 'ReportEvents' });
  try {
    return { result: await run(), events };
  } finally {
    await cdp.send('Tracing.end');
    await complete;
    await cdp.detach();
  }
}
