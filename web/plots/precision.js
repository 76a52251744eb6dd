// What a dtype does to the table: the error map (rounded − exact) over
// (position, dimension) drawn by the heatmap, then a table of facts per format
// (first colliding positions, overflow, largest error) and the replays of the
// reported cases as notes. Everything shown is text or numbers it is given.
import { draw as drawHeatmap } from './heatmap.js';
import { htmlElement, notesContainer } from './svg.js';

/**
 * data: { map: { values, rows, columns, painter? (heatmap.js) }, facts: { caption, head: [text], rows: [[text]] },
 *         notes: [{ text, testId? }] }
 * options: the heatmap's options for the map (domain, titles, readout, describe, …).
 */
export function draw(element, data, options = {}) {
  const mapHolder = htmlElement('div', 'posenc-precision-map');
  const factsHolder = htmlElement('div', 'posenc-precision-facts');
  element.replaceChildren(mapHolder, factsHolder);
  const notes = notesContainer(element, options, 'posenc-notes posenc-precision-notes');
  const map = drawHeatmap(mapHolder, data.map, options);
  let shown = null;

  function renderText(data) {
    // Rewritten only when they change: the map's readout moves far more often.
    const text = JSON.stringify([data.facts, data.notes]);
    if (text === shown) return;
    shown = text;
    const table = htmlElement('table', 'posenc-facts');
    const caption = htmlElement('caption', null, table);
    caption.textContent = data.facts.caption;
    const headRow = htmlElement('tr', null, htmlElement('thead', null, table));
    for (const heading of data.facts.head) {
      const cell = htmlElement('th', null, headRow);
      cell.scope = 'col';
      cell.textContent = heading;
    }
    const body = htmlElement('tbody', null, table);
    for (const [first, ...rest] of data.facts.rows) {
      const row = htmlElement('tr', null, body);
      const head = htmlElement('th', null, row);
      head.scope = 'row';
      head.textContent = first;
      for (const value of rest) htmlElement('td', null, row).textContent = value;
    }
    factsHolder.replaceChildren(table);
    notes.replaceChildren();
    for (const { text, testId } of data.notes) {
      const line = htmlElement('p', null, notes);
      line.textContent = text;
      if (testId) line.dataset.testid = testId;
    }
  }
  renderText(data);

  return {
    update(next, nextOptions = options) {
      options = nextOptions;
      map.update(next.map, nextOptions);
      renderText(next);
    },
    destroy() {
      map.destroy();
      element.replaceChildren();
    },
  };
}
