import { describe, it, expect } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PLOTS } from '../../web/model/registry.js';

// The README is a user's first page; reference material lives in docs/. These
// checks keep it short, keep what it says of the plots true and keep every
// relative link pointing at a file.
const root = fileURLToPath(new URL('../..', import.meta.url));
const markdownFiles = (dir) =>
  readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? markdownFiles(join(dir, entry.name))
      : entry.name.endsWith('.md')
        ? [join(dir, entry.name)]
        : [],
  );

/** Targets of [text](target) and ![alt](target) that are not URLs or anchors. */
function relativeLinks(text) {
  return [...text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)]
    .map(([, target]) => target.split('#')[0])
    .filter((target) => target && !/^[a-z][a-z\d+.-]*:/i.test(target));
}

describe('documentation', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');

  it('the README stays a first page: at most 200 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
  });

  it('docs/performance.md holds the current figures and how to reproduce them, in at most 250 lines', () => {
    // Its journal is git history (issue 47): the page keeps what each figure measures and the command.
    const performance = readFileSync(join(root, 'docs/performance.md'), 'utf8');
    expect(performance.split('\n').length).toBeLessThanOrEqual(250);
    expect(performance).toContain('\n## Reproducing\n');
    expect(performance).toContain('\n## Current figures\n');
  });

  it('the README names as many plots as there are elements, and the same ones', () => {
    const claim = /(\d+) plots \(([^)]*)\)/.exec(readme);
    expect(claim, 'a sentence "N plots (`a`, `b`, …)"').not.toBeNull();
    const named = [...claim[2].matchAll(/`([^`]+)`/g)].map((match) => match[1]);
    const elements = PLOTS.filter((plot) => plot.tag).map((plot) => plot.name);
    expect(Number(claim[1])).toBe(elements.length);
    expect(named).toEqual(elements);
  });

  it('the README has exactly the two set-up commands and links every docs page', () => {
    const setUp = readme.split('## Set up')[1].split('\n## ')[0];
    expect(setUp.match(/^npm (start|test)\b/gm)).toEqual(['npm start', 'npm test']);
    for (const page of markdownFiles('docs').filter((file) => !file.includes('/integrations/')))
      expect(readme, `README links ${page}`).toContain(`](${page})`);
  });

  it('every relative link in README.md and docs/ names an existing file', () => {
    const broken = [];
    for (const file of ['README.md', ...markdownFiles('docs')]) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const target of relativeLinks(text))
        if (!existsSync(join(root, dirname(file), target))) broken.push(`${file} -> ${target}`);
    }
    expect(broken).toEqual([]);
  });

  it('a LICENSE file states the license package.json names', () => {
    const { license } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
    expect(readFileSync(join(root, 'LICENSE'), 'utf8')).toContain(`${license} License`);
  });
});
