// web/build/vite-documents.js: the start page and every chapter of the registry
// are generated for the build (resolveId/load of their file names in web/) and
// served by the dev server, with no copy of them on disk.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents } from '../../../web/build/generate-lists.mjs';
import { documentsPlugin } from '../../../web/build/vite-documents.js';
import { CHAPTERS, START_FILE } from '../../../web/model/registry.js';

const root = fileURLToPath(new URL('../../../web/', import.meta.url)).replace(/\/$/, '');
const FILES = [START_FILE, ...CHAPTERS.map((chapter) => chapter.file)];

describe('the documents in a build', () => {
  it('are on disk nowhere in web/ (build output, not checked in)', () => {
    for (const file of FILES) expect(existsSync(`${root}/${file}`), file).toBe(false);
    expect(existsSync(`${root}/embed.html`)).toBe(true);
  });

  it('are the start page and one per chapter of the registry, each loaded as the generator writes it', async () => {
    const plugin = documentsPlugin({ root });
    await plugin.buildStart.call({});
    const texts = documents();
    expect(Object.keys(texts)).toEqual(FILES);
    for (const file of FILES) {
      const id = plugin.resolveId(`${root}/${file}`);
      expect(id, file).toBe(`${root}/${file}`);
      expect(await plugin.load(id), file).toBe(texts[file]);
    }
    for (const chapter of CHAPTERS)
      expect(texts[chapter.file], chapter.file).toContain(`data-chapter="${chapter.name}"`);
    expect(texts[START_FILE]).toContain('data-chapter="start"');
    expect(await plugin.api.texts()).toEqual(Object.values(texts));
  });

  it('leaves every other file to Vite (embed.html is hand-written)', async () => {
    const plugin = documentsPlugin({ root });
    for (const id of [`${root}/embed.html`, `${root}/main.js`, `${root}/build/templates/chapter.html`, 'rope.html'])
      expect(plugin.resolveId(id), id).toBeUndefined();
    expect(await plugin.load(`${root}/embed.html`)).toBeUndefined();
  });
});

describe('the documents in the dev server', () => {
  let server;
  let base;
  beforeAll(async () => {
    server = await createServer({
      configFile: `${root}/vite.config.js`,
      logLevel: 'silent',
      server: { port: 0, strictPort: false, hmr: false, watch: null },
    });
    await server.listen();
    base = server.resolvedUrls.local[0];
  });
  afterAll(() => server?.close());

  it('serves each, transformed as a file would be (Vite client, Embed buttons, English text in place)', async () => {
    const texts = documents();
    for (const [path, file] of [['', START_FILE], ...FILES.map((file) => [file, file])]) {
      const response = await fetch(`${base}${path}?lang=zh`);
      expect(response.status, file).toBe(200);
      expect(response.headers.get('content-type'), file).toMatch(/^text\/html/);
      const html = await response.text();
      const chapter = /data-chapter="([\w-]+)"/.exec(texts[file])[1];
      expect(html, file).toContain(`data-chapter="${chapter}"`);
      expect(html, file).toContain('/@vite/client');
      expect(html, file).toContain('data-i18n-rendered="en"');
    }
    const rope = await (await fetch(`${base}rope.html`)).text();
    expect(rope).toContain('data-testid="embed-button-rope-relative"');
  });

  it('leaves the other documents to Vite', async () => {
    const embed = await fetch(`${base}embed.html`);
    expect(embed.status).toBe(200);
    expect(await embed.text()).not.toContain('data-chapter=');
  });
});
