// The site-generator helpers (web/integrations/) against the elements they
// write: the Hexo tag and the Hugo shortcode keep their own lists of plots and
// attributes (they cannot import the elements; web/build/generate-lists.mjs
// writes them), which must be the elements' own; the shortcode's CDN version
// must be the package's. Their builds in real
// generators are tested by tests/integrations/.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { ATTRIBUTES } from '../../../web/model/params.js';
import { ELEMENTS } from '../../../web/model/registry.js';

const require = createRequire(import.meta.url);
const hexo = require('../../../web/integrations/hexo/index.cjs');
const shortcode = readFileSync(new URL('../../../web/integrations/hugo/posenc.html', import.meta.url), 'utf8');
const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
const GLOBAL_ATTRIBUTES = ['lang', 'id', 'class'];
/** The quoted words of the shortcode's `{{- $name := slice … -}}`. */
const shortcodeList = (name) =>
  [...new RegExp(String.raw`\$${name} := slice ([^}]*)`).exec(shortcode)[1].matchAll(/"([^"]+)"/g)].map((m) => m[1]);

describe('the Hexo tag and the Hugo shortcode name what the elements take', () => {
  const plots = Object.values(ELEMENTS).sort();
  const attributes = [...Object.keys(ATTRIBUTES), ...GLOBAL_ATTRIBUTES].sort();
  it('Hexo: every plot and attribute, no other', () => {
    expect([...hexo.PLOTS].sort()).toEqual(plots);
    expect([...hexo.ATTRIBUTES].sort()).toEqual(attributes);
  });
  it('Hugo: every plot and attribute, no other; the CDN URL of this version', () => {
    expect(shortcodeList('plots').sort()).toEqual(plots);
    expect(shortcodeList('attributes').sort()).toEqual(attributes);
    expect(shortcode).toContain(`{{- $version := "${version}" -}}`);
  });
});

describe('the Hexo tag writes one element', () => {
  it('with its attributes in order, quoted values unquoted, markup escaped', () => {
    expect(hexo.elementHtml(['heatmap', 'd-model=32', 'theme:"dark"', "lang='zh'"], 'p.md')).toBe(
      '<posenc-heatmap d-model="32" theme="dark" lang="zh"></posenc-heatmap>',
    );
    expect(hexo.elementHtml(['row', 'length=1"><script>x</script>'], 'p.md')).toBe(
      '<posenc-row length="1&quot;&gt;&lt;script&gt;x&lt;/script&gt;"></posenc-row>',
    );
  });
  it('refuses an unknown plot or attribute, naming the post', () => {
    expect(() => hexo.elementHtml(['heatmaps'], 'p.md')).toThrow(/^posenc tag in p\.md: plot must be one of heatmap,/);
    expect(() => hexo.elementHtml([], 'p.md')).toThrow(/got ""$/);
    expect(() => hexo.elementHtml(['heatmap', 'onclick=x'], 'p.md')).toThrow(/got "onclick=x"$/);
    expect(() => hexo.elementHtml(['heatmap', 'd-model'], 'p.md')).toThrow(/got "d-model"$/);
  });
});
