'use strict';
// posenc for Hexo: a tag that puts one interactive plot of the sinusoidal
// positional encoding in a Markdown post, and (optionally) the files to serve
// the plots from the site itself instead of a CDN.
//   scripts/posenc.js:  require('posenc/integrations/hexo')(hexo);
//   a post:             {% posenc heatmap d-model=128 length=256 position=10 dimension=6 %}
//   _config.yml:        posenc: { self_host: true }  # or elements_url: <URL of posenc-elements.js>
// A wrong plot or attribute name fails the build naming the post; values are
// checked by the element, which shows an inline message for a bad one.
const { createReadStream, readdirSync } = require('node:fs');
const { join, posix } = require('node:path');
const { version } = require('../../../package.json');

const PLOTS = [
  'heatmap',
  'waves',
  'ladder',
  'row',
  'sensitivity',
  'offset-dots',
  'similarity',
  'rotation',
  'compare',
  'precision',
  'rope-relative',
  'rope-scaling',
  'attention',
  'attention-rows',
  'sine-only',
  'sine-fit',
  'extrapolation',
  'token-scale',
];
// The elements' attributes (web/model/params.js; tests/js/integrations.test.js
// keeps the lists equal) and the global ones worth passing on.
const ATTRIBUTES = [
  'd-model',
  'length',
  'preset',
  'layout',
  'exponent',
  'order',
  'angle',
  'base',
  'start',
  'padding-row',
  'scale',
  'odd-column',
  'rope-preset',
  'rope-type',
  'head-dim',
  'rope-theta',
  'factor',
  'original-max-position-embeddings',
  'seq-len',
  'beta-fast',
  'beta-slow',
  'mscale',
  'mscale-all-dim',
  'attention-factor',
  'low-freq-factor',
  'high-freq-factor',
  'position',
  'offset',
  'dimension',
  'compare',
  'precision',
  'rope-dim',
  'rope-layout',
  'context',
  'theme',
  'height',
  'lang',
  'id',
  'class',
];
const CDN_URL = `https://cdn.jsdelivr.net/npm/posenc@${version}/dist/elements/posenc-elements.js`;
// What the script tag needs at run time, in the package's own layout: the
// bundle imports ../../web/lib/index.js, which fetches web/lib/wasm/*.wasm.
const PACKAGE = join(__dirname, '../../..');
// (Walked with their subfolders: web/lib/wasm, web/lib/identify.)
const RUNTIME_DIRS = ['dist/elements', 'web/lib'];
const SELF_HOSTED = 'posenc/';

const escapeAttribute = (text) =>
  String(text).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** `{% posenc plot name=value … %}` arguments -> the element's HTML; throws on a wrong name. */
function elementHtml(args, where) {
  const [plot, ...pairs] = args;
  if (!PLOTS.includes(plot))
    throw new RangeError(`posenc tag in ${where}: plot must be one of ${PLOTS.join(', ')}, got "${plot ?? ''}"`);
  let html = `<posenc-${plot}`;
  for (const pair of pairs) {
    const match = /^([a-z-]+)[=:](.*)$/s.exec(pair);
    if (!match || !ATTRIBUTES.includes(match[1]))
      throw new RangeError(
        `posenc tag in ${where}: expected name=value with a name among ${ATTRIBUTES.join(', ')}, got "${pair}"`,
      );
    const value = match[2].replace(/^(["'])(.*)\1$/s, '$2');
    html += ` ${match[1]}="${escapeAttribute(value)}"`;
  }
  return `${html}></posenc-${plot}>`;
}

/** The .js, .mjs and .wasm files under `dir` of the package (its subfolders too), as package paths. */
function runtimeFiles(dir) {
  return readdirSync(join(PACKAGE, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = posix.join(dir, entry.name);
    if (entry.isDirectory()) return runtimeFiles(path);
    return /\.(js|mjs|wasm)$/.test(entry.name) ? [path] : [];
  });
}

module.exports = function posencHexo(hexo) {
  const options = hexo.config.posenc ?? {};
  const selfHost = options.self_host === true;
  const root = hexo.config.root ?? '/';
  const scriptUrl = selfHost
    ? posix.join(root, SELF_HOSTED, 'dist/elements/posenc-elements.js')
    : options.elements_url || CDN_URL;

  hexo.extend.tag.register('posenc', function posencTag(args) {
    // A module script runs once per page however often it is repeated.
    return `<script type="module" src="${escapeAttribute(scriptUrl)}"></script>${elementHtml(args, this.source ?? this.path ?? 'a post')}`;
  });

  if (selfHost)
    hexo.extend.generator.register('posenc', () =>
      RUNTIME_DIRS.flatMap(runtimeFiles).map((file) => ({
        path: posix.join(SELF_HOSTED, file),
        data: () => createReadStream(join(PACKAGE, file)),
      })),
    );
};
module.exports.PLOTS = PLOTS;
module.exports.ATTRIBUTES = ATTRIBUTES;
module.exports.elementHtml = elementHtml;
