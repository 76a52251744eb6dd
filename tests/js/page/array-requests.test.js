// The page asks its worker for the arrays its sections draw (web/page/array-requests.js); what
// it reports as still to ask for keeps the page's idle work going, so it must come to an end.
import { describe, expect, it } from 'vitest';
import { wantedArrays } from '../../../web/model/arrays.js';
import { defaultState } from '../../../web/model/state.js';
import { createArrayRequests } from '../../../web/page/array-requests.js';

const recorder = () => {
  const asked = [];
  return { asked, request: (slot) => asked.push(slot) };
};

describe('array requests of a chapter', () => {
  const state = defaultState();
  const slots = Object.keys(wantedArrays(state));

  it('asks once for each slot its sections draw, and then has nothing left when a slot is drawn on no section of the page', () => {
    expect(slots.length).toBeGreaterThan(1);
    // A chapter whose one section draws the first slot only: the others belong to other chapters.
    const sections = [{ deps: [slots[0]] }];
    const compute = recorder();
    const arrays = createArrayRequests(compute, () => sections);
    expect(arrays.ask(sections, state, false)).toBe(false);
    expect(compute.asked).toEqual([slots[0]]);
    expect(arrays.ask(sections, state, false)).toBe(false);
    expect(compute.asked).toEqual([slots[0]]);
  });

  it('reports a slot as outstanding while a section of the page that draws it was left out', () => {
    const onScreen = { deps: [slots[0]] };
    const below = { deps: [slots[1]] };
    const compute = recorder();
    const arrays = createArrayRequests(compute, () => [onScreen, below]);
    expect(arrays.ask([onScreen], state)).toBe(true);
    expect(compute.asked).toEqual([slots[0]]);
    expect(arrays.ask([onScreen, below], state, false)).toBe(false);
    expect(compute.asked).toEqual([slots[0], slots[1]]);
  });
});
