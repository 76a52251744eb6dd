import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { CSS } from '../../web/elements/styles.js';

// The elements build their theme rules from web/plots/palette.css, read as
// text: these checks keep that file in the shape web/elements/styles.js reads.
const paletteCss = readFileSync(new URL('../../web/plots/palette.css', import.meta.url), 'utf8').replace(
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
