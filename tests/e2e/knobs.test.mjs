// The knobs beside the plots (issue 48): on every chapter, on a phone (390 × 844) and a desktop
// (1280 × 800), each section's own knobs and each plot that reads them are seen together, fully
// inside the window below the chapter's strip, scrolled as a reader scrolls to drag a knob while
// watching a plot (the plot brought right under the knobs); the strip stays in view and is at most
// 56 px tall on the phone; no section shows a knob its plots do not read (SECTION_KNOBS), every
// knob a section reads is in its form, the strip or the RoPE lab's form; the instances of one knob
// move together, and ids are unique.
// Usage: node tests/e2e/knobs.test.mjs (after `npx vite build --config web/vite.config.js`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { knobsOf } from '../../web/model/arrays.js';
import { CHAPTERS, sectionsOf } from '../../web/model/registry.js';
import { SECTION_KNOBS } from '../../web/model/section-knobs.js';
import { SECTIONS } from '../../web/sections/sections.js';
import { launchChromium } from './chromium.mjs';
import { assert, check, finish, watchedPage } from './harness.mjs';
import { serveStatic } from './server.mjs';

const site = fileURLToPath(new URL('../../dist/site', import.meta.url));
if (!existsSync(`${site}/index.html`)) {
  console.error('dist/site is missing: run `npx vite build --config web/vite.config.js` first.');
  console.log('0 passed, 1 failed');
  process.exit(1);
}

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const STRIP_MAX_ON_PHONE = 56;
/** Plot name -> the state keys it is drawn from. */
const KEYS_OF_PLOT = new Map(SECTIONS.map((section) => [section.name, knobsOf(section.deps)]));
/**
 * Plots taller than the window less the strip and their knobs: no scrolling shows them whole. For
 * these the knobs stay pinned above the part in view, the plot right under them (the test checks
 * that each is indeed too tall, so the list cannot outlive a plot made smaller).
 */
const TALLER_THAN_THE_WINDOW = {
  phone: ['compare'],
  desktop: [],
};

const server = await serveStatic(site);
const browser = await launchChromium();

async function openChapter(context, file, language = 'en') {
  const page = await watchedPage(context);
  await page.goto(`${server.url}${file}?lang=${language}`);
  await page.waitForSelector('#status[hidden]', { state: 'attached', timeout: 30000 });
  return page;
}

/**
 * Scrolls as a reader does to drag the knobs of section `id` while watching `plot`: the plot's top
 * right under the knobs (pinned below the strip, or in their place above the plot), then waits
 * for the plot to be drawn. Returns the boxes (viewport coordinates) of the strip, the knobs'
 * controls, their form and the plot.
 */
async function bringTogether(page, id, plot) {
  const boxes = () =>
    page.evaluate(
      ([id, plot]) => {
        const box = (element) => {
          const { top, bottom, left, right, height } = element.getBoundingClientRect();
          return { top, bottom, left, right, height };
        };
        const form = document.querySelector(`form[data-knobs="${id}"]`);
        return {
          strip: box(document.getElementById('controls')),
          form: box(form),
          controls: [...form.elements].map((control) => ({ id: control.id, ...box(control) })),
          plot: plot ? box(document.querySelector(`[data-plot="${plot}"]`)) : null,
          window: { width: innerWidth, height: innerHeight },
        };
      },
      [id, plot],
    );
  const place = () =>
    page.evaluate(
      ([id, plot]) => {
        const form = document.querySelector(`form[data-knobs="${id}"]`);
        const target = plot ? document.querySelector(`[data-plot="${plot}"]`) : form;
        const strip = document.getElementById('controls').getBoundingClientRect();
        const under = plot ? form.offsetHeight + parseFloat(getComputedStyle(form).marginBottom) : 0;
        scrollBy(0, target.getBoundingClientRect().top - strip.bottom - under);
      },
      [id, plot],
    );
  await place();
  if (plot)
    await page
      .waitForFunction((plot) => document.querySelector(`[data-plot="${plot}"]`).childElementCount > 0, plot, {
        timeout: 20000,
      })
      .catch(() => {});
  // Drawn plots above may have changed the page's height meanwhile.
  await page.waitForTimeout(300);
  await place();
  await page.waitForTimeout(100);
  return boxes();
}

const inside = (box, { top, bottom, width }) =>
  box.top >= top - 0.5 && box.bottom <= bottom + 0.5 && box.left >= -0.5 && box.right <= width + 0.5;

try {
  for (const [device, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ]) {
    const context = await browser.newContext({ viewport });
    for (const chapter of CHAPTERS) {
      let englishPage = null;
      await check(
        `${device}: ${chapter.file}: each section's knobs and each plot they change are seen together`,
        async () => {
          const page = await openChapter(context, chapter.file);
          const problems = [];
          const tall = [];
          let pairs = 0;
          for (const section of sectionsOf(chapter.name)) {
            const keys = await page.$$eval(`form[data-knobs="${section.id}"] [name]`, (controls) =>
              controls.map((control) => control.name),
            );
            if (keys.length === 0) continue;
            // The plots that read one of its knobs (a section without plots: its form alone).
            const plots = section.plots
              .map((plot) => plot.name)
              .filter((name) => keys.some((key) => KEYS_OF_PLOT.get(name)?.has(key)));
            for (const plot of plots.length ? plots : [null]) {
              const boxes = await bringTogether(page, section.id, plot);
              const view = { top: boxes.strip.bottom, bottom: boxes.window.height, width: boxes.window.width };
              pairs++;
              for (const control of boxes.controls)
                if (!inside(control, view)) problems.push(`${control.id} not in view with ${plot ?? 'its section'}`);
              if (!plot) continue;
              if (boxes.plot.top < boxes.form.bottom - 0.5)
                problems.push(
                  `${plot}: its top ${boxes.plot.top} under the knobs of ${section.id} (to ${boxes.form.bottom})`,
                );
              if (TALLER_THAN_THE_WINDOW[device].includes(plot)) {
                tall.push(plot);
                const room = view.bottom - boxes.form.bottom;
                if (boxes.plot.height <= room)
                  problems.push(`${plot} (${boxes.plot.height} px) now fits ${room} px: not taller than the window`);
                if (boxes.plot.top > boxes.form.bottom + 24)
                  problems.push(`${plot}: ${boxes.plot.top - boxes.form.bottom} px below its knobs`);
              } else if (!inside(boxes.plot, view))
                problems.push(
                  `${plot} (${boxes.plot.top}–${boxes.plot.bottom}) not fully in view below the strip (${view.top}–${view.bottom}) with the knobs of ${section.id}`,
                );
            }
          }
          assert(page.problems.length === 0, page.problems.join('; '));
          // The strip's check below reads the same page in English.
          englishPage = page;
          assert(pairs > 0, 'no section of the chapter has a form of its own knobs');
          assert(problems.length === 0, problems.join('; '));
          return `${pairs} knob forms with a plot${tall.length ? `; taller than the window, knobs pinned above: ${tall.join(', ')}` : ''}`;
        },
      );

      await check(
        `${device}: ${chapter.file}: the strip stays in view while its sections are read${device === 'phone' ? `, ≤ ${STRIP_MAX_ON_PHONE} px tall in both languages` : ''}`,
        async () => {
          const heights = [];
          for (const language of ['en', 'zh']) {
            const page =
              language === 'en' && englishPage ? englishPage : await openChapter(context, chapter.file, language);
            englishPage = null;
            await page.evaluate(() => scrollTo(0, 0));
            const strip = page.locator('#controls');
            const keys = await strip
              .locator('[name]')
              .evaluateAll((controls) => controls.map((control) => control.name));
            assert(keys.join() === chapter.strip.join(), `the strip holds ${keys}, the registry says ${chapter.strip}`);
            // At the heading of each section that follows a strip knob: the strip whole at the top.
            for (const section of sectionsOf(chapter.name).filter((s) =>
              SECTION_KNOBS[s.id].some((key) => chapter.strip.includes(key)),
            )) {
              await page.locator(`#h-${section.id}`).evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
              await page.waitForTimeout(50);
              const box = await strip.evaluate((element) => {
                const { top, bottom, height } = element.getBoundingClientRect();
                return { top, bottom, height };
              });
              assert(
                box.top >= -0.5 && box.top <= 0.5,
                `${language}: at §${section.id} the strip's top is at ${box.top}`,
              );
              assert(await strip.isVisible(), `${language}: at §${section.id} the strip is hidden`);
              for (const control of await strip.locator('input, button').all())
                assert(await control.isVisible(), `${language}: a control of the strip is hidden`);
              heights.push(box.height);
            }
            assert(page.problems.length === 0, page.problems.join('; '));
            await page.close();
          }
          const tallest = Math.max(...heights);
          if (device === 'phone') assert(tallest <= STRIP_MAX_ON_PHONE, `the strip is ${tallest} px tall`);
          return `strip ${tallest} px tall`;
        },
      );
    }
    await context.close();
  }

  await check(
    'no section shows a knob its plots do not read; every knob a section reads is reachable; ids unique',
    async () => {
      const context = await browser.newContext({ viewport: DESKTOP });
      const problems = [];
      for (const chapter of CHAPTERS) {
        const page = await openChapter(context, chapter.file);
        const shown = await page.evaluate(() => {
          const forms = {};
          for (const form of document.querySelectorAll('form[data-knobs]'))
            forms[form.dataset.knobs] = [...form.elements].filter((c) => c.name).map((c) => c.name);
          const lab = [...(document.getElementById('rope-lab-controls')?.elements ?? [])].map((c) => c.name);
          const ids = [...document.querySelectorAll('[id]')].map((element) => element.id);
          const labelled = [...document.querySelectorAll('form[data-knobs] [name]')].filter(
            (control) => control.labels.length !== 1,
          );
          return {
            forms,
            lab,
            duplicates: ids.filter((id, i) => ids.indexOf(id) !== i),
            unlabelled: labelled.map((c) => c.id),
          };
        });
        const strip = shown.forms[''] ?? [];
        for (const section of sectionsOf(chapter.name)) {
          const own = shown.forms[section.id] ?? [];
          for (const key of own) {
            if (!SECTION_KNOBS[section.id].includes(key))
              problems.push(`${section.id} shows ${key}, which it does not read`);
            if (strip.includes(key)) problems.push(`${section.id} shows ${key}, which the strip holds`);
          }
          for (const key of SECTION_KNOBS[section.id])
            if (!own.includes(key) && !strip.includes(key) && !shown.lab.includes(key))
              problems.push(`${section.id} reads ${key}, which no form of ${chapter.file} holds`);
        }
        for (const key of strip)
          if (!sectionsOf(chapter.name).some((section) => SECTION_KNOBS[section.id].includes(key)))
            problems.push(`${chapter.file}: the strip holds ${key}, which no section reads`);
        if (shown.duplicates.length) problems.push(`${chapter.file}: ids twice: ${shown.duplicates.join(', ')}`);
        if (shown.unlabelled.length)
          problems.push(`${chapter.file}: not one label each: ${shown.unlabelled.join(', ')}`);
        await page.close();
      }
      await context.close();
      assert(problems.length === 0, problems.join('; '));
    },
  );

  await check('the instances of a knob move together, with their outputs and the URL', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await openChapter(context, 'sinusoidal.html');
    await page.fill('#c-row-position', '37');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('p') === '37');
    const shown = await page.evaluate(() =>
      [...document.querySelectorAll('form[data-knobs] [name="position"]')].map((input) => [
        input.id,
        input.value,
        document.getElementById(input.id.replace(/^c-/, 'o-')).textContent,
      ]),
    );
    assert(shown.length >= 8, `${shown.length} position sliders`);
    const wrong = shown.filter(([, value, output]) => value !== '37' || output !== '37');
    assert(wrong.length === 0, `not at 37: ${JSON.stringify(wrong)}`);
    // A select too: the preset of one section is every section's.
    await page.selectOption('#c-ladder-preset', 'tensor2tensor');
    await page.waitForFunction(() => new URLSearchParams(location.search).get('preset') === 'tensor2tensor');
    const presets = await page.$$eval('form[data-knobs] [name="preset"]', (selects) => selects.map((s) => s.value));
    assert(
      presets.every((value) => value === 'tensor2tensor'),
      `presets: ${presets}`,
    );
    // Reset all, in the strip.
    await page.click('#reset');
    await page.waitForFunction(() => document.getElementById('c-heatmap-position').value === '10');
    assert(page.problems.length === 0, page.problems.join('; '));
    await context.close();
    return `${shown.length} position sliders`;
  });
} finally {
  await browser.close();
  await server.close();
}
finish('knobs');
