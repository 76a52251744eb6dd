// End-to-end checks of "Check my implementation" and the exports, in headless
// Chromium against the built site (run `npx vite build --config web/vite.config.js`
// first). Every table the page is asked to identify is written here from the
// framework's formula in float64, never from posenc.
// Usage: node tests/e2e/check.test.mjs   — screenshots go to test-results/e2e/.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { launchChromium } from './chromium.mjs';
import { assert, check, finish, watchedPage } from './harness.mjs';
import { serveStatic } from './server.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const site = `${root}dist/site`;
const artifacts = `${root}test-results/e2e`;
const require = createRequire(import.meta.url);

if (!existsSync(`${site}/index.html`)) {
  console.error('dist/site is missing: run `npx vite build --config web/vite.config.js` first.');
  console.log('0 passed, 1 failed');
  process.exit(1);
}
mkdirSync(artifacts, { recursive: true });

// ---- Reference tables, float64, from the frameworks' code --------------------

/** fairseq SinusoidalPositionalEmbedding.get_embedding(num_embeddings, embedding_dim, padding_idx). */
function fairseqTable(numEmbeddings, embeddingDim, paddingIdx = 1) {
  const halfDim = Math.floor(embeddingDim / 2);
  const emb = Math.log(10000) / (halfDim - 1);
  const frequency = Array.from({ length: halfDim }, (_, i) => Math.exp(i * -emb));
  const rows = [];
  for (let pos = 0; pos < numEmbeddings; pos++) {
    const angles = frequency.map((w) => pos * w);
    const row = [...angles.map(Math.sin), ...angles.map(Math.cos)];
    if (embeddingDim % 2 === 1) row.push(0);
    rows.push(pos === paddingIdx ? row.map(() => 0) : row);
  }
  return rows;
}

/** The paper: PE(pos, 2i) = sin(pos / base^(2i/d)), PE(pos, 2i+1) = cos(...); `swap` puts cos first. */
function paperValue(pos, column, d, { base = 10000, swap = false } = {}) {
  const angle = pos / base ** ((2 * Math.floor(column / 2)) / d);
  return (column % 2 === 0) !== swap ? Math.sin(angle) : Math.cos(angle);
}

/**
 * x rounded to IEEE float16 (10 fraction bits, subnormal below 2^-14, to
 * nearest, ties to even), on the bits of the float64: as torch's .half() rounds.
 */
function toFloat16(x) {
  if (x === 0 || !Number.isFinite(x)) return x;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const exponent = Number((bits >> 52n) & 0x7ffn) - 1023;
  const significand = (bits & ((1n << 52n) - 1n)) | (1n << 52n);
  const kept = Math.max(exponent, -14);
  const drop = BigInt(42 + kept - exponent);
  let q = significand >> drop;
  const rest = significand & ((1n << drop) - 1n);
  if (rest > 1n << (drop - 1n) || (rest === 1n << (drop - 1n) && (q & 1n) === 1n)) q += 1n;
  const value = Number(q) * 2 ** (kept - 10);
  return (bits >> 63n === 1n ? -1 : 1) * (value > 65504 ? Infinity : value);
}

/** A .npy 1.0 file: '<f8', C order unless told otherwise. */
function npyBytes(values, length, d, { fortran = false } = {}) {
  let header = `{'descr': '<f8', 'fortran_order': ${fortran ? 'True' : 'False'}, 'shape': (${length}, ${d}), }`;
  header = header.padEnd(Math.ceil((10 + header.length + 1) / 64) * 64 - 11) + '\n';
  const bytes = Buffer.alloc(10 + header.length + values.length * 8);
  Buffer.from([0x93, ...Buffer.from('NUMPY'), 1, 0]).copy(bytes);
  bytes.writeUInt16LE(header.length, 8);
  bytes.write(header, 10, 'latin1');
  values.forEach((v, k) => bytes.writeDoubleLE(v, 10 + header.length + 8 * k));
  return bytes;
}

/** Reads a .npy 1.0 file: { descr, fortran, shape, values, headerLength }. */
function readNpy(bytes) {
  assert(bytes[0] === 0x93 && bytes.subarray(1, 6).toString('latin1') === 'NUMPY', 'no .npy magic');
  assert(bytes[6] === 1 && bytes[7] === 0, `version ${bytes[6]}.${bytes[7]}`);
  const headerLength = bytes.readUInt16LE(8);
  const header = bytes.subarray(10, 10 + headerLength).toString('latin1');
  const descr = /'descr': '([^']+)'/.exec(header)?.[1];
  const fortran = /'fortran_order': (\w+)/.exec(header)?.[1];
  const shape = /'shape': \((\d+), (\d+)\)/.exec(header)?.slice(1).map(Number);
  const start = 10 + headerLength;
  const size = descr === '<f4' ? 4 : 8;
  const count = (bytes.length - start) / size;
  const values = Array.from({ length: count }, (_, k) =>
    size === 4 ? bytes.readFloatLE(start + 4 * k) : bytes.readDoubleLE(start + 8 * k),
  );
  return { descr, fortran, shape, values, headerLength, header };
}

// ---- The browser -------------------------------------------------------------

const server = await serveStatic(site);
const browser = await launchChromium();

/** A page that records console errors, uncaught exceptions and CSP violations. */
async function openPage(context, query = '') {
  const page = await watchedPage(context);
  await page.goto(`${server.url}implementations.html${query}`);
  await page.waitForSelector('#status[hidden]', { state: 'attached', timeout: 15000 });
  return page;
}

/** Waits for the checker's answer about `source` (the name it shows) and its heatmap, or for an error. */
async function answerFor(page, source, { error = false } = {}) {
  await page.waitForFunction(
    ([text, wantError]) => {
      const state = document.getElementById('check-status')?.dataset.state;
      if (wantError) return state === 'error';
      // The difference heatmap follows the answer: its caption is written when it is drawn.
      return (
        state === 'done' &&
        document.querySelector('.check-source')?.textContent.includes(text) &&
        document.querySelector('[data-testid="check-largest"]')?.textContent !== ''
      );
    },
    [source, error],
    { timeout: 20000 },
  );
}

/** Painted (non-transparent) pixels of the canvases in `selector`. */
function paintedPixels(page, selector) {
  return page.evaluate((where) => {
    let painted = 0;
    for (const canvas of document.querySelectorAll(`${where} canvas`)) {
      const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
      for (let i = 3; i < data.length; i += 4) if (data[i] !== 0) painted++;
    }
    return painted;
  }, selector);
}

/** Clicks `selector` and returns the downloaded file: { name, bytes }. */
async function downloadFrom(page, selector) {
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 15000 }), page.click(selector)]);
  return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
}

/**
 * A screenshot of the section. The viewport is first grown to hold it whole:
 * capturing beyond the viewport resizes the page, which clears the canvases.
 */
async function sectionScreenshot(page, path) {
  const viewport = page.viewportSize();
  const height = await page.evaluate(() => Math.ceil(document.getElementById('check').getBoundingClientRect().height));
  await page.setViewportSize({ width: viewport.width, height: Math.max(viewport.height, height + 80) });
  await page.evaluate(() => document.getElementById('check').scrollIntoView());
  await page.waitForTimeout(300);
  await page.locator('#check').screenshot({ path });
  await page.setViewportSize(viewport);
}

async function axeViolations(page, selector) {
  await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  return page.evaluate(async (where) => {
    const result = await window.axe.run(where, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  }, selector);
}

try {
  const desktop = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  const page = await openPage(desktop);
  await page.locator('#check').scrollIntoViewIfNeeded();

  await check('nothing marked hidden is shown (the idle progress bar under the samples)', async () => {
    await page.waitForSelector('.check-progress', { state: 'attached', timeout: 15000 });
    const shown = await page.evaluate(() =>
      [...document.querySelectorAll('[hidden]')]
        .filter((node) => getComputedStyle(node).display !== 'none')
        .map((node) => `${node.tagName.toLowerCase()}.${node.className}`),
    );
    assert(shown.length === 0, `hidden but shown: ${shown.join(', ')}`);
  });

  await check("a pasted CSV of fairseq's get_embedding is named fairseq", async () => {
    const rows = fairseqTable(50, 32);
    await page.fill('#check-paste', rows.map((row) => row.join(',')).join('\n'));
    await page.click('#check-run');
    await answerFor(page, 'pasted');
    // What was read, said before the verdict: a table read in the wrong shape shows here.
    const source = await page.textContent('.check-source');
    assert(source.includes('read as 50 rows × 32 columns'), `source: ${source}`);
    const verdict = await page.textContent('[data-testid="check-verdict"]');
    assert(verdict.includes('This is the fairseq table'), `verdict: ${verdict}`);
    assert((await page.getAttribute('[data-testid="check-verdict"]', 'data-match')) === 'true', 'no match');
    const params = await page.textContent('[data-testid="check-params"]');
    assert(params.includes('50 × 32') && params.includes('padding row1'), `params: ${params}`);
    assert((await page.textContent('[data-testid="check-first"]')).includes('Equal to fairseq'), 'first difference');
  });

  await check('an odd width: a cos-first table with a zero last column is told apart from the paper', async () => {
    const [length, d] = [40, 9];
    const rows = Array.from({ length }, (_, pos) =>
      Array.from({ length: d }, (_, j) => (j === d - 1 ? 0 : paperValue(pos, j, d, { swap: true })).toFixed(7)),
    );
    await page.fill('#check-paste', rows.map((row) => row.join(',')).join('\n'));
    await page.click('#check-run');
    await answerFor(page, 'pasted');
    const codes = await page.$$eval('[data-testid="check-diagnosis"] li', (items) =>
      items.map((li) => li.dataset.code),
    );
    assert(JSON.stringify(codes.sort()) === JSON.stringify(['odd-column-zero', 'sin-cos-swapped']), `codes: ${codes}`);
    // The paper's last column is a sine, whatever this table's order is.
    const params = await page.textContent('[data-testid="check-params"]');
    assert(params.includes('last column (odd d)zero (vaswani: sin alone)'), `params: ${params}`);
    const item = await page.textContent('[data-testid="check-diagnosis"] li[data-code="odd-column-zero"]');
    assert(item.includes('a sin at pair index i = 4'), item);
  });

  await check(
    'a pasted transposed table (dimensions in rows) is named so, with the code for its true shape',
    async () => {
      const [length, d] = [40, 8];
      const rows = Array.from({ length: d }, (_, j) =>
        Array.from({ length }, (_, pos) => paperValue(pos, j, d).toFixed(7)),
      );
      await page.fill('#check-paste', rows.map((row) => row.join(',')).join('\n'));
      await page.click('#check-run');
      await answerFor(page, 'pasted');
      const verdict = await page.textContent('[data-testid="check-verdict"]');
      assert(verdict.includes('transposed') && verdict.includes('vaswani'), `verdict: ${verdict}`);
      const item = page.locator('[data-testid="check-diagnosis"] li[data-code="transposed"]');
      assert((await item.count()) === 1, 'no transposed diagnosis');
      assert((await item.textContent()).includes('8 × 40'), await item.textContent());
      const code = await page.textContent('[data-testid="check-options"]');
      assert(code.includes('length: 40, dModel: 8'), `options code: ${code}`);
      assert(await page.isHidden('[data-testid="check-first"]'), 'a first difference is shown for a transposed table');
    },
  );

  await check(
    'an uploaded .npy with sin and cos swapped is diagnosed, and its difference heatmap renders',
    async () => {
      const [length, d] = [200, 48];
      const values = [];
      for (let pos = 0; pos < length; pos++)
        for (let j = 0; j < d; j++) values.push(paperValue(pos, j, d, { swap: true }));
      await page.setInputFiles('#check-file', {
        name: 'swapped.npy',
        mimeType: 'application/octet-stream',
        buffer: npyBytes(values, length, d),
      });
      await answerFor(page, 'swapped.npy');
      const item = page.locator('[data-testid="check-diagnosis"] li[data-code="sin-cos-swapped"]');
      assert((await item.count()) === 1, 'no sin-cos-swapped diagnosis');
      const sentence = await item.textContent();
      assert(/sine and cosine are swapped/i.test(sentence) && sentence.includes('vaswani'), `diagnosis: ${sentence}`);
      const first = await page.textContent('[data-testid="check-first"]');
      assert(first.includes('row 0, column 0') && first.includes('vaswani has 0, this table 1'), `first: ${first}`);
      const painted = await paintedPixels(page, '[data-check-plot="difference"]');
      assert(painted > 5000, `difference heatmap: ${painted} painted pixels`);
      const label = await page.getAttribute(
        '[data-check-plot="difference"] :is([role="img"], [role="application"])',
        'aria-label',
      );
      assert(label?.includes('minus the vaswani table'), `heatmap label: ${label}`);
      await sectionScreenshot(page, `${artifacts}/check-desktop-en.png`);
    },
  );

  await check('the diagnosis is translated into Chinese with its numbers', async () => {
    await page.selectOption('#language', 'zh');
    await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
    const sentence = await page.textContent('[data-testid="check-diagnosis"] li[data-code="sin-cos-swapped"]');
    assert(sentence.includes('互换') && sentence.includes('(cos, sin)'), `zh diagnosis: ${sentence}`);
    const first = await page.textContent('[data-testid="check-first"]');
    assert(first.includes('第 0 行第 0 列'), `zh first difference: ${first}`);
    assert(/[\u4e00-\u9fff]/.test(await page.textContent('#export-heading')), 'export heading not translated');
    await sectionScreenshot(page, `${artifacts}/check-desktop-zh.png`);
    await page.selectOption('#language', 'en');
    await page.waitForFunction(() => document.documentElement.lang === 'en');
  });

  await check(
    'a pasted table whose angles went through float16 is named, with the step that lost precision (en, 中文)',
    async () => {
      // The paper's angles pos * w rounded to float16 (a model run in half precision), printed with 8 digits.
      const [length, d] = [128, 16];
      const rows = Array.from({ length }, (_, pos) =>
        Array.from({ length: d }, (_, j) => {
          const angle = toFloat16(pos / 10000 ** ((2 * Math.floor(j / 2)) / d));
          return (j % 2 === 0 ? Math.sin(angle) : Math.cos(angle)).toPrecision(8);
        }),
      );
      await page.fill('#check-paste', rows.map((row) => row.join(',')).join('\n'));
      await page.click('#check-run');
      await answerFor(page, 'pasted');
      const verdict = await page.textContent('[data-testid="check-verdict"]');
      assert(verdict.includes('This is the vaswani table, with its angles in float16'), `verdict: ${verdict}`);
      const item = page.locator('[data-testid="check-diagnosis"] li[data-code="angle-dtype"]');
      assert((await item.count()) === 1, 'no angle-dtype diagnosis');
      const sentence = await item.textContent();
      assert(
        /angles were rounded to float16: position × frequency kept only 11 significant bits/.test(sentence) &&
          /up to [\d.e-]+ at row \d+/.test(sentence) &&
          sentence.includes('This step lost the precision'),
        `diagnosis: ${sentence}`,
      );
      const params = await page.textContent('[data-testid="check-params"]');
      assert(params.includes('angles computed infloat16 (rounded)'), `params: ${params}`);
      const code = await page.textContent('[data-testid="check-options"]');
      assert(code.includes("angleDtype: 'float16'"), `options code: ${code}`);
      await page.selectOption('#language', 'zh');
      await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
      const chinese = await page.textContent('[data-testid="check-diagnosis"] li[data-code="angle-dtype"]');
      assert(
        chinese.includes('角度被舍入到 float16') && chinese.includes('精度损失在这一步'),
        `zh diagnosis: ${chinese}`,
      );
      const zhVerdict = await page.textContent('[data-testid="check-verdict"]');
      assert(zhVerdict.includes('角度用 float16 表示'), `zh verdict: ${zhVerdict}`);
      await page.selectOption('#language', 'en');
      await page.waitForFunction(() => document.documentElement.lang === 'en');
    },
  );

  await check('bad input is reported inline, as text', async () => {
    await page.setInputFiles('#check-file', {
      name: 'fortran.npy',
      mimeType: 'application/octet-stream',
      buffer: npyBytes([0, 1, 0, 1], 2, 2, { fortran: true }),
    });
    await answerFor(page, '', { error: true });
    const fortran = await page.textContent('#check-status');
    assert(fortran.includes('Fortran') && fortran.includes('ascontiguousarray'), `status: ${fortran}`);
    await page.fill('#check-paste', '0, 1\n<img src=x onerror=alert(1)>, 2');
    await page.click('#check-run');
    await page.waitForFunction(() => document.getElementById('check-status').textContent.includes('<img'));
    assert((await page.locator('#check img').count()) === 0, 'pasted text reached the DOM as HTML');
    await page.fill('#check-paste', '');
    await page.click('#check-run');
    assert((await page.textContent('#check-status')).includes('Paste some numbers'), 'empty paste');
  });

  await check('samples work from the keyboard; the PyTorch tutorial shows float32 angles', async () => {
    await page.focus('[data-testid="check-sample-fairseq"]');
    await page.keyboard.press('Enter');
    await answerFor(page, 'fairseq');
    assert((await page.textContent('[data-testid="check-verdict"]')).includes('fairseq'), 'fairseq sample');
    await page.click('[data-testid="check-sample-pytorch-float32"]');
    await answerFor(page, 'PyTorch tutorial');
    const verdict = await page.textContent('[data-testid="check-verdict"]');
    assert(verdict.includes('vaswani') && verdict.includes('float32'), `verdict: ${verdict}`);
    const sentence = await page.textContent('li[data-code="float32-angle"]');
    assert(/up to [\d.e-]+ at row \d+/.test(sentence), `float32 sentence: ${sentence}`);
    await page.click('[data-testid="check-sample-question"]');
    await answerFor(page, 'Q&A');
    const codes = await page.$$eval('[data-testid="check-diagnosis"] li', (items) =>
      items.map((li) => li.dataset.code),
    );
    for (const code of ['exponent-uses-column', 'sin-cos-swapped', 'ratio-power'])
      assert(codes.includes(code), `question sample: ${codes}`);
  });

  // The current settings: d = 48, base 10^3.5 (the slider rounds it to 3160).
  await page.fill('#c-dModel', '48');
  await page.fill('#c-base', '3.5');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('base') === '3160');

  await check('the .npy export holds the current table (header and values within 1.2e-7)', async () => {
    const { name, bytes } = await downloadFrom(page, '#export-npy');
    assert(name === 'posenc-vaswani-base3160-256x48.npy', `file name ${name}`);
    const npy = readNpy(bytes);
    assert(npy.descr === '<f4' && npy.fortran === 'False', `header: ${npy.header}`);
    assert(JSON.stringify(npy.shape) === '[256,48]', `shape ${npy.shape}`);
    assert((10 + npy.headerLength) % 64 === 0 && npy.header.endsWith('\n'), 'header not padded to 64 bytes');
    assert(npy.values.length === 256 * 48, `${npy.values.length} values`);
    let worst = 0;
    npy.values.forEach((v, k) => {
      worst = Math.max(worst, Math.abs(v - paperValue(Math.floor(k / 48), k % 48, 48, { base: 3160 })));
    });
    assert(worst <= 1.2e-7, `max |export - float64 reference| = ${worst}`);
    const json = JSON.parse((await downloadFrom(page, '#export-json')).bytes.toString('utf8'));
    assert(json.length === 256 && json[255].length === 48, 'JSON shape');
    assert(
      json.flat().every((v, k) => v === npy.values[k]),
      'JSON differs from the .npy',
    );
    const csv = (await downloadFrom(page, '#export-csv')).bytes.toString('utf8').trim().split('\n');
    assert(csv.length === 256 && Number(csv[10].split(',')[7]) === npy.values[10 * 48 + 7], 'CSV');
  });

  await check('the code snippet follows the settings and the language choice', async () => {
    const numpy = await page.textContent('#export-code');
    assert(numpy.includes('import numpy as np') && numpy.includes('3160.0'), `numpy snippet: ${numpy}`);
    assert(numpy.includes('length, d_model = 256, 48'), 'snippet shape');
    await page.check('#export-lang-pytorch');
    assert((await page.textContent('#export-code')).includes('import torch'), 'PyTorch snippet');
    await page.check('#export-lang-jax');
    assert((await page.textContent('#export-code')).includes("jax_enable_x64', True"), 'JAX snippet');
    await page.check('#export-lang-numpy');
    await page.click('#export-copy');
    await page.waitForFunction(() => document.getElementById('export-status').textContent !== '');
  });

  await check('plots export as PNG and as standalone SVG', async () => {
    // This chapter's plots: the comparison (a canvas and axes) and the Q&A's column mistake (curves and a key).
    await page.locator('[data-plot="compare"]').scrollIntoViewIfNeeded();
    await page.waitForTimeout(500);
    await page.locator('#export-plot').scrollIntoViewIfNeeded();
    await page.focus('#export-plot');
    await page.selectOption('#export-plot', 'compare');
    const png = await downloadFrom(page, '#export-png');
    assert(png.name === 'posenc-compare.png', png.name);
    assert(png.bytes.subarray(1, 4).toString('latin1') === 'PNG', 'not a PNG');
    const [width, height] = [png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)];
    assert(width > 400 && height > 300, `PNG ${width} × ${height}`);
    writeFileSync(`${artifacts}/export-compare.png`, png.bytes);
    const svg = (await downloadFrom(page, '#export-svg')).bytes.toString('utf8');
    assert(svg.startsWith('<svg') && svg.includes('xmlns="http://www.w3.org/2000/svg"'), 'not an svg');
    assert(svg.includes('<image') && svg.includes('data:image/png;base64,'), 'canvas layer missing');
    assert(svg.includes('dimension j') && !svg.includes('var(--'), 'axis text missing or unresolved colours');
    writeFileSync(`${artifacts}/export-compare.svg`, svg);
    await page.selectOption('#export-plot', 'check-difference');
    const difference = await downloadFrom(page, '#export-png');
    writeFileSync(`${artifacts}/export-check-difference.png`, difference.bytes);
    await page.locator('[data-plot="mistake-column"]').scrollIntoViewIfNeeded();
    await page.waitForTimeout(500);
    await page.selectOption('#export-plot', 'mistake-column');
    const offset = (await downloadFrom(page, '#export-svg')).bytes.toString('utf8');
    assert(offset.includes('from position'), 'mistake-column key missing from the SVG');
    writeFileSync(`${artifacts}/export-mistake-column.svg`, offset);
    await page.selectOption('#export-plot', 'compare');
    writeFileSync(`${artifacts}/export-compare.png`, (await downloadFrom(page, '#export-png')).bytes);
  });

  await check(
    "an uploaded 2-D grid (MAE's get_2d_sincos_pos_embed, 8 × 12 patches) is named a grid, with the call that rebuilds it",
    async () => {
      // facebookresearch/mae util/pos_embed.py: the column (w) coordinate fills the first half of the columns.
      const [height, width, dim] = [8, 12, 64];
      const oneAxis = (position) => {
        const omega = Array.from({ length: dim / 4 }, (_, i) => 1 / 10000 ** (i / (dim / 4)));
        return [...omega.map((w) => Math.sin(position * w)), ...omega.map((w) => Math.cos(position * w))];
      };
      const values = [];
      for (let h = 0; h < height; h++) for (let w = 0; w < width; w++) values.push(...oneAxis(w), ...oneAxis(h));
      await page.setInputFiles('#check-file', {
        name: 'grid.npy',
        mimeType: 'application/octet-stream',
        buffer: npyBytes(values, height * width, dim),
      });
      await answerFor(page, 'grid.npy');
      const verdict = await page.textContent('[data-testid="check-verdict"]');
      assert(verdict.includes('2-D sin-cos grid of 8 rows of 12 patches') && verdict.includes('column (w)'), verdict);
      const code = await page.textContent('[data-testid="check-options"]');
      assert(
        code.startsWith('pe.sincosGrid2d({ dim: 64, height: 8, width: 12') && code.includes("axisOrder: 'w-h'"),
        code,
      );
      // Its note: MAE's code calls this half emb_h (mae#18); nothing is compared with a 1-D preset.
      const naming = page.locator('[data-testid="check-diagnosis"] li[data-code="grid-naming"]');
      assert((await naming.count()) === 1, 'no grid-naming note');
      assert(await page.isHidden('[data-testid="check-first"]'), 'a first difference from a 1-D preset is shown');
      assert(await page.isHidden('.check-difference'), 'the difference from a 1-D preset is shown');
    },
  );

  await check(
    "an uploaded 3-D grid (diffusers' get_3d_sincos_pos_embed, 3 frames of 4 × 6 patches) is named a 3-D grid, with its call",
    async () => {
      // diffusers src/diffusers/models/embeddings.py: [temporal dim/4 | w then h, 3·dim/8 each], each [sin | cos].
      const [frames, height, width, dim] = [3, 4, 6, 64];
      const oneAxis = (position, columns) => {
        const omega = Array.from({ length: columns / 2 }, (_, i) => 1 / 10000 ** (i / (columns / 2)));
        return [...omega.map((w) => Math.sin(position * w)), ...omega.map((w) => Math.cos(position * w))];
      };
      const values = [];
      for (let f = 0; f < frames; f++)
        for (let h = 0; h < height; h++)
          for (let w = 0; w < width; w++)
            values.push(...oneAxis(f, dim / 4), ...oneAxis(w, (3 * dim) / 8), ...oneAxis(h, (3 * dim) / 8));
      await page.setInputFiles('#check-file', {
        name: 'grid3d.npy',
        mimeType: 'application/octet-stream',
        buffer: npyBytes(values, frames * height * width, dim),
      });
      await answerFor(page, 'grid3d.npy');
      const verdict = await page.textContent('[data-testid="check-verdict"]');
      assert(verdict.includes('3-D sin-cos grid of 3 frames of 4 rows of 6 patches'), verdict);
      const code = await page.textContent('[data-testid="check-options"]');
      assert(
        code.startsWith('pe.sincosGrid3d({ dim: 64, frames: 3, height: 4, width: 6') &&
          code.includes("axisOrder: 'w-h'"),
        code,
      );
      assert(await page.isHidden('.check-difference'), 'the difference from a 1-D preset is shown');
    },
  );

  await check('axe-core finds no serious or critical violations in the section', async () => {
    const violations = await axeViolations(page, '#check');
    assert(violations.length === 0, violations.join('\n'));
  });

  await check('no console errors, exceptions or CSP violations on the desktop page', async () => {
    assert(page.problems.length === 0, page.problems.join('\n'));
  });

  const phone = await browser.newContext({
    viewport: { width: 360, height: 740 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'en-US',
  });
  await check('phone width (360 px): the section fits in either language', async () => {
    const small = await openPage(phone);
    await small.locator('#check').scrollIntoViewIfNeeded();
    // The checker is a chunk of its own, loaded as its section nears the screen.
    await small.waitForSelector('#export-plot option', { state: 'attached', timeout: 15000 });
    // Before any check: the plot list reads as text (no typeset math run together), and
    // exporting the difference says that nothing was checked yet.
    const labels = await small.$$eval('#export-plot option', (options) => options.map((o) => o.textContent));
    const leaks = labels.filter((label) => /jjj|\\[a-z]|⌋2/.test(label));
    assert(leaks.length === 0, `typeset math leaks into the plot list: ${leaks.join(' | ')}`);
    assert(
      labels.some((label) => label.includes('column index j instead of 2⌊j/2⌋.')),
      labels.join(' | '),
    );
    await small.selectOption('#export-plot', 'check-difference');
    await small.click('#export-png');
    const said = await small.textContent('#export-status');
    assert(said.startsWith('Nothing checked yet'), `export before a check: ${said}`);
    await small.click('[data-testid="check-sample-sin-cos-swapped"]');
    await answerFor(small, 'swapped');
    for (const language of ['en', 'zh']) {
      await small.selectOption('#language', language);
      await small.waitForTimeout(300);
      const overflow = await small.evaluate(() => ({
        document: document.documentElement.scrollWidth,
        sticking: [...document.querySelectorAll('#check *')]
          .filter((node) => node.getBoundingClientRect().right > window.innerWidth + 1)
          .slice(0, 3)
          .map((node) => `${node.tagName}.${node.className} at ${Math.round(node.getBoundingClientRect().right)}px`),
      }));
      assert(overflow.document <= 360, `${language}: scroll width ${overflow.document}`);
      assert(overflow.sticking.length === 0, `${language}: sticking out: ${overflow.sticking.join(', ')}`);
      if (language === 'zh') await sectionScreenshot(small, `${artifacts}/check-phone-zh.png`);
    }
    assert(small.problems.length === 0, small.problems.join('\n'));
  });
} finally {
  await browser.close();
  await server.close();
}

finish();
