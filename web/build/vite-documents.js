// Vite plugin: the explainer's documents (the start page and one per chapter of
// the registry) come from the generator (documents() of
// web/build/generate-lists.mjs) and never lie on disk: they are build output.
// - Build: each is the module of its file name in web/ (resolveId and load), so
//   the build takes them as the inputs they name, with the ids, the transforms
//   (transformIndexHtml: Embed buttons, rich text; then the post-bundle plugins)
//   and the output names a file there would get; and no stale copy on disk can
//   be read instead.
// - Dev server: it reads a document from disk only, so a middleware generates
//   each one at its request and hands it to Vite's transformIndexHtml, as Vite
//   does with a file. The generator is loaded through Vite (ssrLoadModule), not
//   imported by the config: a change to a string or a section module is then
//   picked up at the next request instead of restarting the server. A change to
//   a template, a fragment or a string reloads the page.
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CHAPTERS, START_FILE } from '../model/registry.js';

/** root: the site's root (web/). */
export function documentsPlugin({ root }) {
  const generatorFile = join(root, 'build/generate-lists.mjs');
  const templateDirs = ['build/templates', 'fragments'].map((dir) => join(root, dir));
  const sourceDirs = [...templateDirs, join(root, 'i18n')];
  const files = [START_FILE, ...CHAPTERS.map((chapter) => chapter.file)];
  let server = null;
  // A build generates the documents once, at its start; the dev server at each request.
  let built = null;
  /** File name -> text of every document, as the generator writes them now. */
  async function generate() {
    const generator = server
      ? await server.ssrLoadModule(generatorFile)
      : await import(pathToFileURL(generatorFile).href);
    return generator.documents();
  }
  const texts = async () => built ?? (await generate());
  /** The document's file name (in web/) of module id or absolute path `id`; undefined for any other. */
  const fileOf = (id) => {
    const path = resolve(id.split('?')[0]);
    return files.find((file) => resolve(root, file) === path);
  };

  return {
    name: 'posenc-documents',
    enforce: 'pre',
    api: {
      /** The text of every generated document (for the plugins that read the documents' keys). */
      texts: async () => Object.values(await texts()),
      /** The templates and fragments the documents are made of. */
      sources: () => templateDirs.flatMap((dir) => readdirSync(dir).map((name) => join(dir, name))),
    },
    configureServer(devServer) {
      server = devServer;
      // Before Vite's own middlewares: its HTML fallback would send a document missing on disk to index.html.
      server.middlewares.use(async (request, response, next) => {
        if (!['GET', 'HEAD'].includes(request.method)) return next();
        let url = new URL(request.url, 'http://localhost').pathname;
        if (url.endsWith('/')) url += START_FILE;
        try {
          const file = fileOf(join(root, decodeURIComponent(url)));
          if (!file) return next();
          const html = await server.transformIndexHtml(url, (await generate())[file], request.originalUrl);
          response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' });
          response.end(request.method === 'HEAD' ? undefined : html);
        } catch (error) {
          next(error);
        }
      });
    },
    async buildStart() {
      built = null;
      if (!server) built = await generate();
    },
    resolveId(id) {
      const file = id.endsWith('.html') && fileOf(id);
      if (file) return resolve(root, file);
    },
    async load(id) {
      const file = fileOf(id);
      if (file) return (await texts())[file];
    },
    // The module graph knows the generator's modules, not the documents made from them: reload them all.
    hotUpdate({ file }) {
      if (this.environment.name !== 'client' || !sourceDirs.some((dir) => file.startsWith(dir + '/'))) return;
      this.environment.hot.send({ type: 'full-reload' });
      return [];
    },
  };
}
