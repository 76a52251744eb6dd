// @vitest-environment jsdom
// A citation worded at run time (web/page/rich-text.js paragraphNode: a string
// that follows the settings) is the same markup the build writes (richHtml).
import katex from 'katex';
import { expect, it } from 'vitest';
import { paragraphNode, richHtml } from '../../../web/page/rich-text.js';

it('paragraphNode writes a citation as richHtml does', () => {
  const text = 'Answer 2 of the Q&A{cite:qa} leaves this open.';
  expect(paragraphNode(text, katex).outerHTML).toBe(richHtml(text, katex));
  expect(paragraphNode(text, katex).querySelector('sup.cite > a').getAttribute('href')).toBe('#source-qa');
});
