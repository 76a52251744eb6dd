// web/plots/palettes.js against d3-scale-chromatic itself (the reference the
// plots used before): the same CSS colour at every t a plot asks for, ends and
// out-of-range t included.
import * as chromatic from 'd3-scale-chromatic';
import { describe, expect, it } from 'vitest';
import * as palettes from '../../../web/plots/palettes.js';

const NAMES = ['interpolateBrBG', 'interpolatePuOr', 'interpolateRdBu', 'interpolateViridis'];
// 4097 evenly spaced t (every viridis step and every spline segment several
// times over), the ends, and a little outside [0, 1].
const TS = [...Array.from({ length: 4097 }, (_, i) => i / 4096), -0.25, -1e-9, 1 + 1e-9, 1.25, 0.1, 0.3, 0.7, 0.9];

describe('palettes', () => {
  it.each(NAMES)('%s is d3-scale-chromatic’s at every t', (name) => {
    const ours = TS.map((t) => palettes[name](t));
    const theirs = TS.map((t) => chromatic[name](t));
    expect(ours).toEqual(theirs);
    // A map, not a constant: the ends differ and every value is a CSS colour.
    expect(ours[0]).not.toBe(ours[4096]);
    for (const colour of ours) expect(colour).toMatch(/^(#[0-9a-f]{6}|rgb\(\d+, \d+, \d+\))$/);
  });

  it('exports only the four maps', () => {
    expect(Object.keys(palettes).sort()).toEqual(NAMES);
  });
});
