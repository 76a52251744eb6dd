// The import direction between the layers of web/ (docs/layout.md): every
// static and dynamic import of every web/**/*.js file is parsed and its target
// resolved to a layer; a layer may import only the layers listed for it.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const web = fileURLToPath(new URL('../../web/', import.meta.url));

/** Layer -> the layers it may import (itself included). Packages (bare specifiers) are always allowed. */
const ALLOWED = {
  lib: ['lib'],
  i18n: ['i18n'],
  plots: ['plots', 'i18n'],
  // Pure and worker-safe: numbers and state, no drawing and no wording.
  model: ['model', 'lib'],
  // Each plot's section: its data from the model, drawn by a plot, worded by i18n.
  sections: ['sections', 'model', 'lib', 'plots', 'i18n'],
  elements: ['elements', 'sections', 'model', 'lib', 'plots', 'i18n'],
  embed: ['embed', 'elements', 'sections', 'model', 'lib', 'i18n'],
  page: ['page', 'sections', 'model', 'lib', 'plots', 'i18n'],
  // web/main.js (the page's entry), web/vite.config.js
  root: ['root', 'build', 'page', 'sections', 'model', 'lib', 'plots', 'i18n'],
  // The Vite plugins: they render the page's text with the page's own code.
  build: ['build', 'page', 'sections', 'model', 'lib', 'i18n'],
  scripts: ['scripts'],
};

/** The layer of a path under web/ (its first folder; files directly in web/ are 'root'). */
function layerOf(file) {
  const parts = relative(web, file).split(sep);
  return parts.length === 1 ? 'root' : parts[0];
}

function jsFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'wasm' || entry.name === 'node_modules' ? [] : jsFiles(path);
    return entry.name.endsWith('.js') ? [path] : [];
  });
}

// import … from '…', import '…', export … from '…', import('…'), new URL('…', import.meta.url) (workers).
const IMPORT_PATTERNS = [
  /^\s*import\s+(?:[\w*{}\s,$]+\s+from\s+)?['"]([^'"]+)['"]/gm,
  /^\s*export\s+(?:\*|\{[^}]*\})\s*(?:as\s+\w+\s+)?from\s+['"]([^'"]+)['"]/gm,
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  /new\s+URL\(\s*['"](\.[^'"]+\.js)['"]\s*,\s*import\.meta\.url\s*\)/g,
];

/** The module specifiers a source text imports (comments removed first). */
function importsOf(source) {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return IMPORT_PATTERNS.flatMap((pattern) => [...code.matchAll(pattern)].map((match) => match[1]));
}

/** Imports of `file` (its source `source`) that break the direction: [{ file, specifier, from, to }]. */
function violations(file, source) {
  const from = layerOf(file);
  const found = [];
  for (const specifier of importsOf(source)) {
    if (!specifier.startsWith('.')) continue;
    const target = resolve(dirname(file), specifier);
    // Outside web/ (package.json): not a layer.
    if (!target.startsWith(web)) continue;
    const to = layerOf(target);
    if (!(ALLOWED[from] ?? []).includes(to)) found.push({ file: relative(web, file), specifier, from, to });
  }
  return found;
}

describe('import direction of web/', () => {
  const files = jsFiles(web);

  it('finds the layers and their imports', () => {
    expect(files.length).toBeGreaterThan(40);
    for (const file of files) expect(Object.keys(ALLOWED), relative(web, file)).toContain(layerOf(file));
    // The parser sees static, re-exported, dynamic and worker imports.
    const element = readFileSync(join(web, 'elements/index.js'), 'utf8');
    expect(importsOf(element)).toEqual(expect.arrayContaining(['../model/registry.js', '../model/state.js']));
    const strings = readFileSync(join(web, 'i18n/plot-strings.js'), 'utf8');
    expect(importsOf(strings)).toContain('./plots.zh.js');
    const client = readFileSync(join(web, 'page/compute-client.js'), 'utf8');
    expect(importsOf(client)).toContain('./compute-worker.js');
  });

  it('no file imports a layer it may not', () => {
    const broken = files.flatMap((file) => violations(file, readFileSync(file, 'utf8')));
    expect(broken).toEqual([]);
  });

  it('a bad import of each kind is caught', () => {
    const at = (path) => join(web, path);
    expect(violations(at('model/x.js'), "import { SECTIONS } from '../page/check.js';")).toHaveLength(1);
    expect(violations(at('elements/x.js'), "export { x } from '../page/i18n.js';")).toHaveLength(1);
    expect(violations(at('embed/x.js'), "const m = await import('../page/exports.js');")).toHaveLength(1);
    expect(violations(at('lib/x.js'), "import '../model/params.js';")).toHaveLength(1);
    expect(violations(at('lib/x.js'), "import '../i18n/en.js';")).toHaveLength(1);
    expect(violations(at('plots/x.js'), "import { PARAMS } from '../model/params.js';")).toHaveLength(1);
    expect(violations(at('model/x.js'), "import { draw } from '../plots/heatmap.js';")).toHaveLength(1);
    expect(violations(at('model/x.js'), "import { SECTIONS } from '../sections/sections.js';")).toHaveLength(1);
    expect(violations(at('model/x.js'), "import strings from '../i18n/en.js';")).toHaveLength(1);
    expect(violations(at('sections/x.js'), "import { setLanguage } from '../page/i18n.js';")).toHaveLength(1);
    expect(
      violations(at('model/x.js'), "new Worker(new URL('../page/compute-worker.js', import.meta.url));"),
    ).toHaveLength(1);
    // Allowed ones are not.
    expect(violations(at('model/x.js'), "import { load } from '../lib/index.js';")).toEqual([]);
    expect(violations(at('page/x.js'), "import { PARAMS } from '../model/params.js';")).toEqual([]);
    expect(violations(at('sections/x.js'), "import { draw } from '../plots/heatmap.js';")).toEqual([]);
    expect(violations(at('elements/x.js'), "import { SECTIONS } from '../sections/sections.js';")).toEqual([]);
    // Commented-out imports do not count.
    expect(violations(at('lib/x.js'), "// import '../page/i18n.js';")).toEqual([]);
  });

  // The parameter table is read by the elements' attribute parsing and the embed: a knob's
  // choices come from the library or a list of the model's own, not from a section's numbers.
  it("the parameter table imports no section's computing module (model/*-data.js)", () => {
    const specifiers = importsOf(readFileSync(join(web, 'model/params.js'), 'utf8'));
    expect(specifiers.length).toBeGreaterThan(0);
    expect(specifiers.filter((specifier) => /-data\.js$/.test(specifier))).toEqual([]);
  });

  // d3-scale-chromatic builds its ~70 colour schemes when imported, with nothing a
  // bundler may drop: 15 KB in the page and in posenc/elements for four colour maps
  // (web/plots/palettes.js has them), and over webpack's 244 KiB hint in an app.
  it('no file imports d3-scale-chromatic (the plots take their colour maps from palettes.js)', () => {
    const importers = files.filter((file) => importsOf(readFileSync(file, 'utf8')).includes('d3-scale-chromatic'));
    expect(importers.map((file) => relative(web, file))).toEqual([]);
  });
});
