// Packs posenc as npm would publish it, installs the tarball into an empty
// project and uses it from a plain Node ESM script, as a user would.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pack } from './app.mjs';

const work = mkdtempSync(join(tmpdir(), 'posenc-pack-'));
let passed = 0;
let failed = 0;
function check(name, ok, detail = '') {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? ` — ${detail}` : ''}`);
}
const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

try {
  const { info, tarball } = await pack(work);
  const files = info.files.map((f) => f.path).sort();
  console.log(
    `tarball ${info.filename}: ${statSync(tarball).size} bytes packed, ${info.unpackedSize} unpacked, ${files.length} files`,
  );
  check(
    'tarball holds the wasm builds and types',
    [
      'web/lib/wasm/posenc-simd.wasm',
      'web/lib/wasm/posenc-scalar.wasm',
      'web/lib/wasm/posenc-core-simd.wasm',
      'web/lib/wasm/posenc-core-scalar.wasm',
      'web/lib/index.d.ts',
      'web/lib/index.js',
    ].every((f) => files.includes(f)),
  );
  check(
    'tarball holds no sources, tests or build trees',
    files.every((f) =>
      /^(package\.json|README\.md|LICENSE|web\/lib\/|web\/elements\/index\.d\.ts$|dist\/elements\/|web\/integrations\/(hexo\/index\.cjs|hugo\/posenc\.html)$)/.test(
        f,
      ),
    ),
    files.join(' '),
  );
  // Four .wasm builds (SIMD and scalar, each with and without RoPE), the elements bundle and web/lib with the
  // runtime readers: the size is in docs/performance.md; the budget leaves room for a patch, not a new part.
  check('tarball is small (< 400 KB)', statSync(tarball).size < 400 * 1024);

  const app = join(work, 'app');
  run('mkdir', ['-p', app]);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  run('npm', ['install', '--no-audit', '--no-fund', tarball], app);
  const script = `
    import { load, PRESETS } from 'posenc';
    const pe = await load();
    const t = pe.table({ length: 1025, dModel: 64 });
    let worst = 0;
    for (let p = 0; p < 1025; p++) for (let j = 0; j < 64; j++) {
      const angle = p / Math.pow(10000, 2 * Math.floor(j / 2) / 64);
      worst = Math.max(worst, Math.abs(t[p * 64 + j] - (j % 2 ? Math.cos(angle) : Math.sin(angle))));
    }
    const big = pe.row(2 ** 20, { dModel: 4096 });
    let worstBig = 0;
    for (let j = 0; j < 4096; j++) {
      const angle = 2 ** 20 / Math.pow(10000, 2 * Math.floor(j / 2) / 4096);
      worstBig = Math.max(worstBig, Math.abs(big[j] - (j % 2 ? Math.cos(angle) : Math.sin(angle))));
    }
    console.log(JSON.stringify({ simd: pe.simd, worst, worstBig, presets: Object.keys(PRESETS).length }));
  `;
  writeFileSync(join(app, 'use.mjs'), script);
  const result = JSON.parse(run('node', ['use.mjs'], app).trim());
  check('installed package loads in Node with SIMD', result.simd === true);
  check(
    'table from the installed package matches a float64 reference',
    result.worst <= 1.2e-7,
    `max error ${result.worst}`,
  );
  check(
    'accuracy bound holds at position 2^20, dModel 4096',
    result.worstBig <= 1.2e-7,
    `max error ${result.worstBig}`,
  );
  check('presets exported', result.presets === 6);
  const oneLiner = run(
    'node',
    [
      '--input-type=module',
      '-e',
      "import('posenc').then(async (m) => console.log((await m.load()).row(0, { dModel: 4 }).join(',')))",
    ],
    app,
  ).trim();
  check("node -e import('posenc') works", oneLiner === '0,1,0,1', oneLiner);
  // posenc/runtimes, an entry point of its own: vLLM's inverse frequencies of a plain Llama config.
  writeFileSync(
    join(app, 'runtimes.mjs'),
    `import { load } from 'posenc';
    import { compareRuntimes } from 'posenc/runtimes';
    const pe = await load();
    const config = { model_type: 'llama', hidden_size: 64, num_attention_heads: 4, max_position_embeddings: 128, rope_theta: 10000 };
    const [layer] = compareRuntimes(pe, config).runtimes.vllm;
    console.log(JSON.stringify([...layer.invFreq]));`,
  );
  const invFreq = JSON.parse(run('node', ['runtimes.mjs'], app).trim());
  const worstFrequency = Math.max(...invFreq.map((w, i) => Math.abs(w - 10000 ** (-(2 * i) / 16))));
  check(
    "posenc/runtimes: compareRuntimes from the installed package (head dim 16's frequencies)",
    invFreq.length === 8 && worstFrequency <= 1e-15,
    JSON.stringify(invFreq),
  );
  const types = readFileSync(join(app, 'node_modules/posenc/web/lib/index.d.ts'), 'utf8');
  check('types are installed', types.includes('export function load'));
  // The documented uses type-check with the right result types and the misuses
  // (@ts-expect-error lines) are errors, through the package's exports map.
  copyFileSync(fileURLToPath(new URL('./types-usage.ts', import.meta.url)), join(app, 'usage.ts'));
  const tsconfig = {
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: 'es2022',
      module: 'esnext',
      moduleResolution: 'bundler',
      lib: ['es2022', 'dom'],
      types: [],
    },
    files: ['usage.ts'],
  };
  writeFileSync(join(app, 'tsconfig.json'), JSON.stringify(tsconfig));
  const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
  let typeErrors = '';
  try {
    run('node', [tsc, '-p', 'tsconfig.json'], app);
  } catch (error) {
    typeErrors = String(error.stdout || error.message);
  }
  check('the types: documented uses compile, misuses do not (tsc --strict)', typeErrors === '', typeErrors);
} catch (error) {
  check('pack, install and import', false, String(error.stderr || error.message));
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(`pack: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
