// End-to-end checks of the RoPE chapter's sections 4-6 (the context-extension
// lab, Check my RoPE, Code) and of <posenc-rope-scaling> in embed.html, in
// headless Chromium at phone width (390 px) against the built site (run
// `npx vite build --config web/vite.config.js` first). Every number the page
// shows is compared with a float64 reference written here (or in
// tests/js/rope-reference.js) from Hugging Face's formulas, never computed by posenc.
// Usage: node tests/e2e/rope-lab.test.mjs   — screenshots go to test-results/e2e/.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { frequenciesReference, ladder } from '../js/rope-reference.js';
import { launchChromium } from './chromium.mjs';
import { assert, check, finish, injected, watchedPage } from './harness.mjs';
import { serveStatic } from './server.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const site = `${root}dist/site`;
const artifacts = `${root}test-results/e2e`;
const require = createRequire(import.meta.url);
const TWO_PI = 2 * Math.PI;
const PHONE = 390;

if (!existsSync(`${site}/index.html`)) {
  console.error('dist/site is missing: run `npx vite build --config web/vite.config.js` first.');
  console.log('0 passed, 1 failed');
  process.exit(1);
}
mkdirSync(artifacts, { recursive: true });

// ---- References (float64, Hugging Face's formulas) ---------------------------

const LLAMA31 = {
  headDim: 128,
  base: 500000,
  seqLen: 131072,
  original: 8192,
  scaling: { type: 'llama3', factor: 8, lowFreqFactor: 1, highFreqFactor: 4, originalMaxPositionEmbeddings: 8192 },
};
const QWEN = {
  headDim: 128,
  base: 1e6,
  seqLen: 131072,
  original: 32768,
  scaling: { type: 'yarn', factor: 4, originalMaxPositionEmbeddings: 32768 },
};

/** What the lab's sentences must say for a configuration. */
function labReference({ headDim, base, seqLen, original, scaling }) {
  const before = ladder(headDim, base);
  const { invFreq: after, attentionFactor } = frequenciesReference({ headDim, base, seqLen, scaling });
  const factor = scaling?.factor ?? 1;
  const kinds = { kept: 0, interpolated: 0, blended: 0 };
  let fullTurns = 0;
  let threshold = Infinity;
  let unseenAfter = 0;
  let unseenBefore = 0;
  before.forEach((w, i) => {
    const ratio = w / after[i];
    if (Math.abs(ratio - 1) < 1e-9) kinds.kept++;
    else if (Math.abs(ratio - factor) < 1e-9 * factor) kinds.interpolated++;
    else kinds.blended++;
    // The arc of the trained range [0, original), compared on the circle.
    const trained = original * w;
    if (trained >= TWO_PI) return fullTurns++;
    threshold = Math.min(threshold, trained / after[i]);
    if (((seqLen - 1) * after[i]) % TWO_PI >= trained * (1 + 1e-12)) unseenAfter++;
    if (seqLen > original && ((seqLen - 1) * w) % TWO_PI >= trained * (1 + 1e-12)) unseenBefore++;
  });
  return {
    pairs: before.length,
    kinds,
    attentionFactor,
    fullTurns,
    threshold,
    unseenAfter,
    unseenBefore,
    beta: 1 / before[1],
  };
}

/** The page's 6-significant-digit rendering of x (number.js's rule, written out). */
const sig6 = (x) => (Math.abs(x) >= 1e5 || Math.abs(x) < 1e-3 ? x.toExponential(5) : String(Number(x.toPrecision(6))));
const numbers = (text) => [...text.replaceAll(',', '').matchAll(/-?\d+(\.\d+)?(e[+-]?\d+)?/g)].map((m) => Number(m[0]));
const close = (got, want, relative) => Math.abs(got - want) <= relative * Math.abs(want);

// A .npy float32 file (version 1.0, C order).
function npyFloat32(values, rows, columns) {
  let header = `{'descr': '<f4', 'fortran_order': False, 'shape': (${rows}, ${columns}), }`;
  header = header.padEnd(Math.ceil((10 + header.length + 1) / 64) * 64 - 11) + '\n';
  const bytes = Buffer.alloc(10 + header.length + values.length * 4);
  Buffer.from([0x93, ...Buffer.from('NUMPY'), 1, 0]).copy(bytes);
  bytes.writeUInt16LE(header.length, 8);
  bytes.write(header, 10, 'latin1');
  values.forEach((v, k) => bytes.writeFloatLE(v, 10 + header.length + 4 * k));
  return bytes;
}

/** A cos or sin cache, float64, of positions 0 .. rows - 1 (half or interleaved layout). */
function cacheValues(options, rows, layout, kind) {
  const { invFreq, attentionFactor, rotaryDim: d } = frequenciesReference(options);
  const values = new Float64Array(rows * d);
  for (let r = 0; r < rows; r++)
    for (let i = 0; i < d / 2; i++) {
      const v = attentionFactor * (kind === 'cos' ? Math.cos(r * invFreq[i]) : Math.sin(r * invFreq[i]));
      const [a, b] = layout === 'half' ? [i, i + d / 2] : [2 * i, 2 * i + 1];
      values[r * d + a] = v;
      values[r * d + b] = v;
    }
  return { values, d };
}

// ---- The browser -------------------------------------------------------------

const server = await serveStatic(site);
const browser = await launchChromium();
const phone = await browser.newContext({ viewport: { width: PHONE, height: 900 }, locale: 'en-US' });

async function openPage(query = '') {
  const page = await watchedPage(phone);
  await page.goto(`${server.url}rope.html${query}`);
  await page.waitForSelector('#status[hidden]', { state: 'attached', timeout: 20000 });
  await page.locator('#rope-lab').scrollIntoViewIfNeeded();
  return page;
}

/** The text of a lab sentence, once it satisfies `ready` (the worker's numbers arrive after a change). */
async function sentence(page, testId, ready = () => true) {
  const locator = page.locator(`[data-testid="${testId}"]`).first();
  const deadline = Date.now() + 20000;
  for (;;) {
    // (textContent: on the page the notes are folded under a summary, in the document but not shown.)
    const text = (await locator.count()) ? await locator.textContent() : '';
    if (text && ready(text)) return text;
    if (Date.now() > deadline) throw new Error(`${testId}: “${text}”`);
    await page.waitForTimeout(100);
  }
}

function assertKinds(text, want, factor) {
  const [pairs, kept, interpolated, , blended] = numbers(text);
  assert(pairs === want.pairs, `pairs ${pairs}, want ${want.pairs}: ${text}`);
  assert(kept === want.kinds.kept, `kept ${kept}, want ${want.kinds.kept}: ${text}`);
  assert(interpolated === want.kinds.interpolated, `interpolated ${interpolated}, want ${want.kinds.interpolated}`);
  assert(blended === want.kinds.blended, `blended ${blended}, want ${want.kinds.blended}: ${text}`);
  assert(text.includes(`factor ${factor}`), `factor ${factor}: ${text}`);
}

function assertUnseen(text, want, { original, seqLen }, language = 'en') {
  // [0, original − 1, fullTurns, pairs, pairs − fullTurns, firstBefore, firstAfter, position, unseenAfter, unseenBefore]
  // (the Chinese sentence names the pairs before the full turns).
  const n = numbers(text);
  if (language === 'zh') [n[2], n[3]] = [n[3], n[2]];
  assert(n[1] === original - 1, `last trained position ${n[1]}: ${text}`);
  assert(n[2] === want.fullTurns && n[3] === want.pairs, `full turns ${n[2]} of ${n[3]}: ${text}`);
  assert(n[5] === original, `first unseen without scaling ${n[5]}: ${text}`);
  const first = Math.ceil(want.threshold);
  assert(Math.abs(n[6] - first) <= 1, `first unseen ${n[6]}, want ${first} ± 1: ${text}`);
  assert(n[7] === seqLen - 1, `position ${n[7]}: ${text}`);
  assert(n[8] === want.unseenAfter, `unseen after ${n[8]}, want ${want.unseenAfter}: ${text}`);
  assert(n[9] === want.unseenBefore, `unseen before ${n[9]}, want ${want.unseenBefore}: ${text}`);
}

async function noOverflow(page, label) {
  const overflow = await page.evaluate(() => ({
    document: document.documentElement.scrollWidth,
    sticking: [...document.querySelectorAll('#rope-lab *, #rope-check *, #rope-code *')]
      .filter((node) => node.getBoundingClientRect().right > window.innerWidth + 1 && !node.closest('.katex, pre'))
      .slice(0, 3)
      .map((node) => `${node.tagName}.${node.className} at ${Math.round(node.getBoundingClientRect().right)}px`),
  }));
  assert(overflow.document <= PHONE, `${label}: scroll width ${overflow.document}`);
  assert(overflow.sticking.length === 0, `${label}: sticking out: ${overflow.sticking.join(', ')}`);
}

async function axeViolations(page) {
  await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  return page.evaluate(async () => {
    const result = await window.axe.run(
      { include: [['#rope-lab'], ['#rope-check'], ['#rope-code']] },
      { resultTypes: ['violations'] },
    );
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((node) => node.target.join(' ')).join(', ')}`);
  });
}

const page = await openPage();

await check(
  'Llama 3.1 (the default preset): kept, interpolated and blended pairs, attention factor, unseen angles, β',
  async () => {
    const want = labReference(LLAMA31);
    assertKinds(await sentence(page, 'rope-kinds'), want, 8);
    const attention = await sentence(page, 'rope-attention');
    assert(attention.startsWith('Attention factor: 1 ('), attention);
    assertUnseen(await sentence(page, 'rope-unseen'), want, LLAMA31);
    const odometer = await sentence(page, 'rope-odometer');
    assert(odometer.includes(`β = rope_theta^(2/d) = ${sig6(want.beta)}`), `β ${sig6(want.beta)}: ${odometer}`);
    // The plot draws every pair twice (rings and dots) and names the thresholds.
    const labels = await page.locator('[data-plot="rope-scaling"] svg text').allTextContents();
    assert(
      labels.some((label) => label.includes('L₀/high_freq_factor = 2,048')),
      labels.join(' | '),
    );
    assert(page.problems.length === 0, page.problems.join('\n'));
  },
);

/** The readout's numbers for pair i: [i, wavelength before, after, factor, original, share in % (absent: full)]. */
function assertPairReadout(text, i, { headDim, base, seqLen, original, scaling }) {
  const theta = base ** ((-2 * i) / headDim);
  const after = frequenciesReference({ headDim, base, seqLen, scaling }).invFreq[i];
  const [pair, before, scaled, factor, below, share] = numbers(text);
  assert(pair === i, `pair ${pair}, want ${i}: ${text}`);
  assert(close(before, TWO_PI / theta, 1e-3), `wavelength before ${before}, want ${TWO_PI / theta}: ${text}`);
  assert(close(scaled, TWO_PI / after, 1e-3), `wavelength after ${scaled}, want ${TWO_PI / after}: ${text}`);
  assert(close(factor, theta / after, 1e-3), `factor ${factor}, want ${theta / after}: ${text}`);
  assert(below === original, `original ${below}: ${text}`);
  const seen = (original * theta) / TWO_PI;
  if (seen >= 1) assert(share === undefined && /whole circle/.test(text), `a full turn: ${text}`);
  else assert(close(share, 100 * seen, 5e-3), `share ${share}%, want ${100 * seen}%: ${text}`);
  const ratio = theta / after;
  const kind = Math.abs(ratio - 1) < 1e-9 ? 'kept' : Math.abs(ratio - 8) < 8e-9 ? 'interpolated' : 'blended';
  assert(text.includes(kind), `${kind}: ${text}`);
}

await check(
  'the per-pair readout: hover a pair of the wavelength plot, then the arrow keys; the dials too',
  async () => {
    const plot = page.locator('[data-plot="rope-scaling"] .posenc-surface');
    const readout = page.locator('[data-testid="rope-scaling-readout"]');
    await plot.scrollIntoViewIfNeeded();
    assert((await readout.innerText()).includes('arrow keys'), await readout.innerText());
    // The x axis's tick labels place the pairs (the lowest row of numeric labels).
    const ticks = await plot.evaluate((surface) => {
      const origin = surface.getBoundingClientRect();
      return [...surface.querySelectorAll('svg text')]
        .map((node) => ({ text: node.textContent, box: node.getBoundingClientRect() }))
        .filter(({ text }) => /^\d+$/.test(text))
        .map(({ text, box }) => ({ pair: Number(text), x: box.x + box.width / 2 - origin.x, y: box.y - origin.y }));
    });
    const lowest = Math.max(...ticks.map((tick) => tick.y));
    const [a, b] = ticks.filter((tick) => Math.abs(tick.y - lowest) < 2).sort((p, q) => p.pair - q.pair);
    const xOf = (pair) => a.x + ((pair - a.pair) * (b.x - a.x)) / (b.pair - a.pair);
    const box = await plot.boundingBox();
    // Pair 32: blended by Llama 3.1 (its wavelength is between L₀/high_freq_factor and L₀).
    await page.mouse.move(box.x + xOf(32), box.y + box.height / 2);
    const hovered = await sentence(page, 'rope-scaling-readout', (text) => text.startsWith('Pair 32'));
    assertPairReadout(hovered, 32, LLAMA31);
    assert(hovered.includes('blended'), hovered);
    await plot.focus();
    await page.keyboard.press('ArrowRight');
    assertPairReadout(await sentence(page, 'rope-scaling-readout', (text) => text.startsWith('Pair 33')), 33, LLAMA31);
    await page.keyboard.press('End');
    const slowest = await sentence(page, 'rope-scaling-readout', (text) => text.startsWith('Pair 63'));
    assertPairReadout(slowest, 63, LLAMA31);
    await page.keyboard.press('Home');
    const fastest = await sentence(page, 'rope-scaling-readout', (text) => text.startsWith('Pair 0'));
    assertPairReadout(fastest, 0, LLAMA31);
    assert(fastest.includes('kept'), fastest);
    await page.keyboard.press('Escape');
    assert((await readout.innerText()).includes('arrow keys'), await readout.innerText());
    // The dials read out the same pairs.
    const dials = page.locator('[data-plot="rope-dials"] .posenc-surface');
    await dials.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    assertPairReadout(await sentence(page, 'rope-dials-readout', (text) => text.startsWith('Pair 1')), 1, LLAMA31);
    await dials.scrollIntoViewIfNeeded();
    const dial = await dials.boundingBox();
    await page.mouse.move(dial.x + 5, dial.y + 5);
    assertPairReadout(await sentence(page, 'rope-dials-readout', (text) => text.startsWith('Pair 0')), 0, LLAMA31);
    await page.mouse.move(0, 0);
    await page.locator('#rope-lab').scrollIntoViewIfNeeded();
    assert(page.problems.length === 0, page.problems.join('\n'));
  },
);

await check('a preset chosen (Qwen2.5 with YaRN): attention factor 0.1 ln 4 + 1, pairs and unseen angles', async () => {
  await page.selectOption('#rope-ropePreset', 'qwen2.5-7b-yarn');
  const want = labReference(QWEN);
  const attention = await sentence(page, 'rope-attention', (text) => text.includes('ln(4)'));
  assert(attention.includes(`= ${sig6(0.1 * Math.log(4) + 1)}`), `${sig6(0.1 * Math.log(4) + 1)}: ${attention}`);
  assert(attention.includes(sig6((0.1 * Math.log(4) + 1) ** 2)), attention);
  assertKinds(await sentence(page, 'rope-kinds', (text) => text.includes('factor 4')), want, 4);
  assertUnseen(await sentence(page, 'rope-unseen', (text) => text.includes('32,767')), want, QWEN);
  assert(page.url().includes('ropePreset=qwen2.5-7b-yarn'), page.url());
  const code = await page.locator('#rope-code-text').textContent();
  assert(code.includes('dim, base = 128, 1000000.0') && code.includes('factor = 4.0'), `code: ${code.slice(0, 400)}`);
});

await check('a field edited (factor 16) is applied and kept in the URL; a bad value is refused in words', async () => {
  await page.fill('#rope-factor', '16');
  await page.press('#rope-factor', 'Tab');
  const want = labReference({ ...QWEN, scaling: { ...QWEN.scaling, factor: 16 } });
  assertKinds(await sentence(page, 'rope-kinds', (text) => text.includes('factor 16')), want, 16);
  await page.waitForFunction(() => location.search.includes('factor=16'), null, { timeout: 5000 });
  await page.fill('#rope-factor', 'abc');
  await page.press('#rope-factor', 'Tab');
  const error = await page.locator('#rope-factor ~ .rope-field-error').innerText();
  assert(error.includes('expected a number from 1 to 1000, got “abc”'), error);
  assert((await page.inputValue('#rope-factor')) === 'abc', 'the refused text left the box');
  await page.waitForTimeout(400);
  assert(page.url().includes('factor=16'), `the URL lost factor 16: ${page.url()}`);
  // A combination the core refuses is said, not drawn silently stale.
  await page.selectOption('#rope-ropeType', 'llama3');
  await page.fill('#rope-lowFreqFactor', '8');
  await page.press('#rope-lowFreqFactor', 'Tab');
  await page.waitForSelector('#rope-lab-status:not([hidden])', { timeout: 10000 });
  const status = await page.locator('#rope-lab-status').innerText();
  assert(/highFreqFactor/.test(status), status);
});

await check('dynamic NTK from the URL: the base at each sequence length', async () => {
  const dynamic = await openPage('?ropePreset=llama2-7b&ropeType=dynamic&factor=2&seqLen=16384');
  const text = await sentence(dynamic, 'rope-dynamic');
  const pairs = [...text.replaceAll(',', '').matchAll(/L = (\d+) → ([\d.e+]+)/g)].map((m) => [
    Number(m[1]),
    Number(m[2]),
  ]);
  assert(pairs.length === 4, text);
  for (const [length, shown] of pairs) {
    const want = 10000 * Math.max(1, (2 * length) / 4096 - 1) ** (128 / 126);
    assert(close(shown, want, 1e-5), `L ${length}: ${shown}, want ${want}`);
  }
  assert(dynamic.problems.length === 0, dynamic.problems.join('\n'));
  await dynamic.close();
});

await check(
  'Check my RoPE: a config.json read in words (frequencies, attention factor, warnings); markup stays text',
  async () => {
    await page.locator('#rope-check').scrollIntoViewIfNeeded();
    // Qwen/Qwen2.5-7B-Instruct config.json's RoPE fields, with its model card's YaRN block.
    const qwen = {
      hidden_size: 3584,
      num_attention_heads: 28,
      max_position_embeddings: 32768,
      rope_theta: 1000000.0,
      rope_scaling: { factor: 4.0, original_max_position_embeddings: 32768, type: 'yarn' },
    };
    await page.fill('#rope-config', JSON.stringify(qwen));
    await page.click('#rope-config-read');
    const summary = await sentence(page, 'rope-config-summary');
    const { invFreq, attentionFactor } = frequenciesReference({ headDim: 128, base: 1e6, scaling: QWEN.scaling });
    for (const part of [
      'RoPE type yarn, head_dim 128 (128 rotary dims), rope_theta 1,000,000',
      `attention factor ${sig6(attentionFactor)}`,
      `64 inverse frequencies, from 1 (wavelength 6.283) to ${sig6(invFreq[63])}`,
    ])
      assert(summary.includes(part), `“${part}” not in: ${summary}`);
    // Llama 2's config.json has no rope_theta.
    await page.fill(
      '#rope-config',
      JSON.stringify({ hidden_size: 4096, num_attention_heads: 32, max_position_embeddings: 4096 }),
    );
    await page.click('#rope-config-read');
    await page.waitForSelector('[data-testid="rope-warning-rope-theta-missing"]', { timeout: 10000 });
    // Markup in a pasted config is shown as text (an unknown type is named in no element).
    const payload = '<img src=x onerror="window.__pwned=1">';
    await page.fill(
      '#rope-config',
      JSON.stringify({ hidden_size: 64, num_attention_heads: 1, rope_scaling: { rope_type: payload } }),
    );
    await page.click('#rope-config-read');
    await page.waitForSelector('[data-testid="rope-warning-unknown-scaling-type"]', { timeout: 10000 });
    await page.fill('#rope-config', `{"rope_theta": "${payload.replaceAll('"', '\\"')}"`);
    await page.click('#rope-config-read');
    await page.waitForFunction(() => document.querySelector('#rope-config-result .rope-error'), null, {
      timeout: 10000,
    });
    const made = await injected(page);
    assert(made.found.length === 0 && made.pwned === null, `markup became elements: ${made.found.join(', ')}`);
  },
);

await check(
  'Check my RoPE: a Llama 3.1 config says what the lab shows (pair split, attention, context covered)',
  async () => {
    await page.locator('#rope-check').scrollIntoViewIfNeeded();
    // meta-llama/Llama-3.1-8B config.json's RoPE fields.
    const llama = {
      hidden_size: 4096,
      num_attention_heads: 32,
      max_position_embeddings: 131072,
      rope_theta: 500000.0,
      rope_scaling: {
        factor: 8.0,
        low_freq_factor: 1.0,
        high_freq_factor: 4.0,
        original_max_position_embeddings: 8192,
        rope_type: 'llama3',
      },
    };
    await page.fill('#rope-config', JSON.stringify(llama));
    await page.click('#rope-config-read');
    const want = labReference(LLAMA31);
    assertKinds(await sentence(page, 'rope-config-kinds', (text) => text.includes('factor 8')), want, 8);
    const attention = await sentence(page, 'rope-config-attention');
    assert(attention.startsWith(`Attention factor: ${sig6(want.attentionFactor)} (`), attention);
    const context = await sentence(page, 'rope-config-context');
    // [max, ratio, factor, original, covered, first unseen, last position, unseen, pairs]
    const [max, ratio, factor, original, covered, first, last, unseen, pairs] = numbers(context);
    const wantCovered = 8 * 8192;
    assert(max === 131072 && ratio === 131072 / wantCovered, `ratio ${ratio}: ${context}`);
    assert(factor === 8 && original === 8192 && covered === wantCovered, `factor·L₀ ${covered}: ${context}`);
    assert(
      Math.abs(first - Math.ceil(want.threshold)) <= 1,
      `first unseen ${first}, want ${want.threshold}: ${context}`,
    );
    assert(last === 131071 && unseen === want.unseenAfter && pairs === want.pairs, `unseen ${unseen}: ${context}`);
    assert(await page.locator('#rope-config-result button').count(), 'no “Show in the lab” button');
    assert((await page.locator('#rope-config-result').innerText()).includes('No warnings'), 'warnings said');
    // Qwen2.5's YaRN config shown in the lab while DeepSeek-V3 (mscale 1) is its preset: HF's defaults, not DeepSeek's.
    await page.selectOption('#rope-ropePreset', 'deepseek-v3');
    await page.waitForFunction(() => location.search.includes('ropePreset=deepseek-v3'), null, { timeout: 5000 });
    await page.locator('#rope-check').scrollIntoViewIfNeeded();
    const qwen = { hidden_size: 3584, num_attention_heads: 28, max_position_embeddings: 32768, rope_theta: 1e6 };
    await page.fill(
      '#rope-config',
      JSON.stringify({ ...qwen, rope_scaling: { factor: 4, original_max_position_embeddings: 32768, type: 'yarn' } }),
    );
    await page.click('#rope-config-read');
    const said = await sentence(page, 'rope-config-attention', (text) => text.includes('ln(4)'));
    await page.click('#rope-config-result button');
    const shown = await sentence(page, 'rope-attention', (text) => text.includes('ln(4)'));
    assert(shown === said && said.includes(`= ${sig6(0.1 * Math.log(4) + 1)}`), `lab: ${shown}; check: ${said}`);
    // Its max_position_embeddings is a quarter of factor·L₀ = 4 × 32,768: no angle outside training below it.
    const quarter = await page.locator('[data-testid="rope-config-context"]').innerText();
    assert(quarter.includes('32,768 = 0.25 × factor·L₀') && quarter.includes('No position below 32,768'), quarter);
  },
);

await check('Check my RoPE: caches named (Llama 3.1 cos .npy float32; interleaved sin as CSV)', async () => {
  const { values, d } = cacheValues(LLAMA31, 8192, 'half', 'cos');
  await page.setInputFiles('#rope-cache-file', {
    name: 'llama31-cos.npy',
    mimeType: 'application/octet-stream',
    buffer: npyFloat32(values, 8192, d),
  });
  const verdict = await sentence(page, 'rope-cache-verdict', (text) => text.includes('llama3'));
  for (const part of [
    'A cos cache, half-split layout',
    '128 rotary dims: rope_theta 500,000, llama3 scaling, factor 8, attention factor 1, float32 values',
  ])
    assert(verdict.includes(part), `“${part}” not in: ${verdict}`);
  const plain = cacheValues({ headDim: 32, base: 10000 }, 64, 'interleaved', 'sin');
  const csv = Array.from({ length: 64 }, (_, r) =>
    Array.from(plain.values.subarray(r * 32, r * 32 + 32)).join(','),
  ).join('\n');
  await page.fill('#rope-cache-text', csv);
  await page.click('#rope-cache-read');
  const second = await sentence(page, 'rope-cache-verdict', (text) => text.includes('sin cache'));
  assert(second.includes('interleaved layout') && second.includes('rope_theta 10,000, no scaling'), second);
  assert(second.includes('float64 values'), second);
  // A cache from position 5 on: the reason in words, nothing undefined.
  const later = cacheValues({ headDim: 16, base: 10000 }, 69, 'half', 'cos');
  const rows = Array.from({ length: 64 }, (_, r) => Array.from(later.values.subarray((r + 5) * 16, (r + 6) * 16)));
  await page.fill('#rope-cache-text', JSON.stringify(rows));
  await page.click('#rope-cache-read');
  const third = await sentence(page, 'rope-cache-verdict', (text) => text.includes('position 0'));
  assert(third.includes('its first row is not position 0') && !third.includes('undefined'), third);
});

await check(
  'Chinese: the same numbers in Chinese sentences; no horizontal overflow at 390 px in either language; axe clean',
  async () => {
    const fresh = await openPage();
    await noOverflow(fresh, 'en');
    await fresh.selectOption('#language', 'zh');
    const want = labReference(LLAMA31);
    const kinds = await sentence(fresh, 'rope-kinds', (text) => /维度对/.test(text));
    assert(kinds.startsWith(`${want.pairs} 个维度对中，${want.kinds.kept} 个频率不变（外推`), kinds);
    assert(kinds.includes(`${want.kinds.interpolated} 个除以 factor 8（内插）`), kinds);
    assertUnseen(await sentence(fresh, 'rope-unseen', (text) => /训练/.test(text)), want, LLAMA31, 'zh');
    const attention = await sentence(fresh, 'rope-attention', (text) => /注意力缩放因子/.test(text));
    assert(attention.startsWith('注意力缩放因子：1（'), attention);
    assert((await fresh.locator('#h-rope-lab').innerText()).includes('上下文扩展实验台'), 'zh title');
    for (const id of ['rope-lab', 'rope-check', 'rope-code']) {
      await fresh.locator(`#${id}`).scrollIntoViewIfNeeded();
      await fresh.waitForTimeout(300);
    }
    await noOverflow(fresh, 'zh');
    await fresh.locator('#rope-lab').screenshot({ path: `${artifacts}/rope-lab-zh-390.png` });
    const violations = await axeViolations(fresh);
    assert(violations.length === 0, violations.join('\n'));
    assert(fresh.problems.length === 0, fresh.problems.join('\n'));
    await fresh.close();
  },
);

await check(
  'Chinese: a config the library refuses is worded in Chinese, naming the field; the English message folds out',
  async () => {
    const zh = await openPage();
    await zh.selectOption('#language', 'zh');
    await zh.locator('#rope-check').scrollIntoViewIfNeeded();
    const refused = async (config) => {
      await zh.fill('#rope-config', typeof config === 'string' ? config : JSON.stringify(config));
      await zh.click('#rope-config-read');
      return sentence(zh, 'rope-config-error', (text) => text.startsWith('无法读取配置'));
    };
    const yarn = { hidden_size: 64, num_attention_heads: 1, rope_scaling: { rope_type: 'yarn' } };
    let text = await refused({
      ...yarn,
      rope_scaling: { ...yarn.rope_scaling, original_max_position_embeddings: 4096 },
    });
    assert(text === '无法读取配置：缺少 rope_scaling.factor。', text);
    const detail = zh.locator('#rope-config-result details');
    assert(!(await detail.evaluate((node) => node.open)), 'the English message is folded');
    await detail.locator('summary').click();
    const english = await detail.locator('code').innerText();
    assert(english.startsWith('posenc.ropeFrequencies: scaling.factor is required'), english);
    text = await refused({
      ...yarn,
      rope_scaling: { rope_type: 'llama3', factor: 8, low_freq_factor: 4, high_freq_factor: 1 },
    });
    assert(text === '无法读取配置：rope_scaling.high_freq_factor 的值无法使用。', text);
    text = await refused({ ...yarn, max_position_embeddings: -3 });
    assert(text === '无法读取配置：max_position_embeddings 的值无法使用。', text);
    text = await refused('{"rope_theta": ');
    assert(text === '无法读取配置：粘贴的文本不是合法的 JSON。', text);
    // No English sentence outside the folded message.
    const shown = await zh.locator('#rope-config-result > p').allInnerTexts();
    assert(
      shown.every((line) => !/[a-z]{4,} [a-z]{4,}/.test(line)),
      shown.join(' | '),
    );
    // Back in English, the same refusal in English.
    await zh.selectOption('#language', 'en');
    text = await sentence(zh, 'rope-config-error', (line) => line.startsWith('The config'));
    assert(text === 'The config could not be read: the text is not valid JSON.', text);
    assert(zh.problems.length === 0, zh.problems.join('\n'));
    await zh.close();
  },
);

await check(
  'embed.html?plot=rope-scaling: DeepSeek-V3 (YaRN, mscale): attention factor 1 and the softmax scale',
  async () => {
    const embed = await watchedPage(phone);
    await embed.goto(`${server.url}embed.html?plot=rope-scaling&ropePreset=deepseek-v3`);
    await embed.waitForFunction(() => document.querySelector('posenc-rope-scaling')?.dataset.state === 'ready', null, {
      timeout: 20000,
    });
    const notes = await embed.evaluate(
      () => document.querySelector('posenc-rope-scaling').shadowRoot.querySelector('.posenc-notes').innerText,
    );
    assert(notes.includes('get_mscale(40, 1) / get_mscale(40, 1) = 1.'), notes);
    assert(notes.includes(`get_mscale(40, 1)² = ${sig6((0.1 * Math.log(40) + 1) ** 2)}`), notes);
    const deepseek = labReference({
      headDim: 64,
      base: 10000,
      seqLen: 163840,
      original: 4096,
      scaling: { type: 'yarn', factor: 40, mscale: 1, mscaleAllDim: 1, originalMaxPositionEmbeddings: 4096 },
    });
    assertKinds(notes.split('\n')[0], deepseek, 40);
    // A bad parameter is named by its URL name.
    await embed.goto(`${server.url}embed.html?plot=rope-scaling&betaFast=0`);
    await embed.waitForFunction(() => document.querySelector('posenc-rope-scaling')?.dataset.state === 'error');
    const message = await embed.evaluate(() => document.querySelector('posenc-rope-scaling').shadowRoot.textContent);
    assert(message.includes('invalid betaFast: expected a number from 0.01 to 1000, got “0”'), message);
    assert(embed.problems.length === 0, embed.problems.join('\n'));
    await embed.close();
  },
);

/**
 * The lab's field labels: per visible label, characters outside its field's box and the
 * places where a line ends between two letters or digits (a word split not after "_").
 */
const labelLayout = (page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('#rope-lab-controls label')]
      .filter((label) => label.offsetParent)
      .map((label) => {
        const box = label.parentElement.getBoundingClientRect();
        const chars = [];
        const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode())
          for (let i = 0; i < node.length; i++) {
            const range = document.createRange();
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            const rect = range.getBoundingClientRect();
            if (rect.width > 0) chars.push({ c: node.data[i], top: rect.top, left: rect.left, right: rect.right });
          }
        const splits = [];
        for (let i = 1; i < chars.length; i++)
          if (
            chars[i].top > chars[i - 1].top + 1 &&
            /[A-Za-z0-9]/.test(chars[i - 1].c) &&
            /[A-Za-z0-9]/.test(chars[i].c)
          )
            splits.push(`${chars[i - 1].c}|${chars[i].c}`);
        const outside = chars.filter((ch) => ch.right > box.right + 0.5 || ch.left < box.left - 0.5).length;
        return { text: label.textContent, lines: new Set(chars.map((ch) => ch.top)).size, splits, outside };
      }),
  );

await check(
  'the lab’s field labels (original_max_position_embeddings) break only after "_" and stay in their boxes, 390 and 480 px, en and zh',
  async () => {
    const wrapped = [];
    // 480 px: two fields a row, where the longest name needs two lines.
    for (const width of [PHONE, 480])
      for (const query of ['', '?ropeType=yarn']) {
        const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'en-US' });
        const narrow = await watchedPage(context);
        await narrow.goto(`${server.url}rope.html${query}`);
        await narrow.waitForSelector('#status[hidden]', { state: 'attached', timeout: 20000 });
        await narrow.locator('#rope-lab').scrollIntoViewIfNeeded();
        for (const language of ['en', 'zh']) {
          if (language === 'zh') await narrow.selectOption('#language', 'zh');
          // The chapter's module (and its CSS) has shown the fields: the long name holds its <wbr>s.
          await narrow.waitForFunction(() =>
            document.querySelector('label[for="rope-originalMaxPositionEmbeddings"] wbr'),
          );
          await narrow.waitForTimeout(300);
          const labels = await labelLayout(narrow);
          assert(
            labels.some((label) => label.text === 'original_max_position_embeddings'),
            labels.map((l) => l.text),
          );
          for (const label of labels) {
            assert(
              label.splits.length === 0,
              `${width} px ${language} ${query}: “${label.text}” split at ${label.splits}`,
            );
            assert(label.outside === 0, `${width} px ${language} ${query}: “${label.text}” outside its box`);
            if (label.lines > 1) wrapped.push(`${width} px: ${label.text} on ${label.lines} lines`);
          }
        }
        assert(narrow.problems.length === 0, narrow.problems.join('\n'));
        await context.close();
      }
    return wrapped.join('; ');
  },
);

await browser.close();
server.close();
finish('rope-lab');
