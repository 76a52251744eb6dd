// A tiny static file server for the built site, bound to 127.0.0.1 on a free
// port. Serves .wasm as application/wasm so streaming compilation works.
// Optional extra response headers (e.g. a Content-Security-Policy, or CORS for
// a page on another origin) and a log of the paths requested.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
};

/**
 * Serves `root`; resolves to { url, requests, close() }.
 * options.headers: added to every response (a function of the file path may
 * return them per file); `requests` lists every path asked for.
 */
export async function serveStatic(root, { headers = {} } = {}) {
  const base = resolve(root);
  const requests = [];
  const extra = (file) => (typeof headers === 'function' ? (headers(file) ?? {}) : headers);
  const server = createServer(async (request, response) => {
    try {
      const path = decodeURIComponent(new URL(request.url, 'http://x').pathname);
      requests.push(path);
      let file = normalize(join(base, path));
      if (file !== base && !file.startsWith(base + sep)) throw new Error('outside root');
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      response.writeHead(200, {
        ...extra(file),
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      });
      response.end(body);
    } catch {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
    }
  });
  await new Promise((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(done);
      }),
  };
}

// `node tests/e2e/server.mjs [dir]` serves a directory until interrupted.
if (import.meta.url === `file://${process.argv[1]}`) {
  const site = await serveStatic(process.argv[2] ?? 'dist/site');
  console.log(`serving on ${site.url}`);
}
