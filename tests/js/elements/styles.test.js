import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { CSS } from '../../../web/elements/styles.js';
import { rebaseUrls } from '../../../web/build/vite-inline-styles.js';

// The elements build their theme rules from web/plots/palette.css, read as
// text: these checks keep that file in the shape web/elements/styles.js reads.
const paletteCss = readFileSync(new URL('../../../web/plots/palette.css', import.meta.url), 'utf8').replace(
  /\/\*[\s\S]*?\*\//g,
  '',
);
const declarations = (block) =>
  [...block.matchAll(/--posenc-([\w-]+):\s*([^;]+);/g)].map(([, name, value]) => [name, value]);

describe('element styles', () => {
  const blocks = [...paletteCss.matchAll(/:root\s*\{([^}]*)\}/g)].map(([, block]) => declarations(block));

  it('palette.css holds a light and a dark palette of the same colours', () => {
    expect(blocks).toHaveLength(2);
    const [light, dark] = blocks.map((palette) => palette.map(([name]) => name));
    expect(light).toEqual(dark);
    expect(light).toEqual(expect.arrayContaining(['bg', 'fg', 'muted', 'grid', 'accent', 'series-1', 'error']));
  });

  it('every palette value is a fallback the page can override, and reaches the plots', () => {
    const [light, dark] = blocks;
    for (const [name, value] of light) {
      expect(CSS).toContain(`--_${name}: var(--posenc-${name}, ${value});`);
      expect(CSS).toContain(`--posenc-${name}: var(--_${name});`);
    }
    // Dark: forced by theme="dark" and followed under a dark preference.
    for (const [name, value] of dark) expect(CSS.split(`--_${name}: var(--posenc-${name}, ${value});`)).toHaveLength(3);
    expect(CSS).not.toMatch(/--posenc-[\w-]+:\s*#/); // never set on :host itself
  });

  it('includes the plot parts rules shared with the page', () => {
    expect(CSS).toContain('.posenc-panel-title');
    expect(CSS).toContain('.posenc-key-solid .posenc-swatch');
  });
});

describe('the page stylesheet put inline (web/build/vite-inline-styles.js)', () => {
  // What a browser would fetch: each url() resolved against the file it is read from (a bare #fragment
  // names a part of the document, wherever the rule is: kept as written).
  const fetched = (css, base) =>
    [...css.matchAll(/url\((["']?)([^)"']+)\1\)/g)].map(([, , url]) =>
      url.startsWith('#') ? url : new URL(url, base).href,
    );
  const css =
    '@font-face{src:url(./KaTeX_Main-Regular-B22Nviop.woff2)format("woff2")}' +
    '.a{background:url(\'../img/dot.png\')}.b{mask:url("icons/x.svg#m")}' +
    '.c{background:url(data:image/png;base64,AAAA)}.d{filter:url(#f)}.e{src:url(/fonts/x.woff2)}' +
    '.f{background:url(https://example.org/a.png)}';

  it('names from the page the same files the stylesheet named from its own place', () => {
    const site = 'https://site.example/docs/';
    const rebased = rebaseUrls(css, 'assets/main-abc.css', 'index.html');
    expect(fetched(rebased, site)).toEqual(fetched(css, `${site}assets/main-abc.css`));
    expect(rebased).toContain('url(./assets/KaTeX_Main-Regular-B22Nviop.woff2)');
    expect(rebased).toContain("url('./img/dot.png')");
    // A page in a folder of its own.
    const nested = rebaseUrls(css, 'assets/main-abc.css', 'embed/page.html');
    expect(fetched(nested, `${site}embed/page.html`)).toEqual(fetched(css, `${site}assets/main-abc.css`));
  });
});
