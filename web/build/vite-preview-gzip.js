// Vite plugin for `vite preview` (npm start): serves the .wasm gzip-compressed
// when the browser accepts it, as it does the JS, CSS and HTML (its own
// compression leaves application/wasm out, which then goes over the wire at
// about twice the size). Compressed once per file and kept.
import { readFile, stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { gzipSync } from 'node:zlib';

export function previewWasmGzipPlugin() {
  let outDir = '';
  const compressed = new Map();
  return {
    name: 'posenc-preview-wasm-gzip',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    configurePreviewServer(server) {
      server.middlewares.use(async (request, response, next) => {
        const path = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
        const accepts = /\bgzip\b/.test(request.headers['accept-encoding'] ?? '');
        if (!path.endsWith('.wasm') || !accepts || !['GET', 'HEAD'].includes(request.method)) return next();
        const file = resolve(outDir, `.${path}`);
        if (!file.startsWith(outDir + sep)) return next();
        let entry;
        try {
          const { mtimeMs } = await stat(file);
          entry = compressed.get(file);
          if (entry?.mtimeMs !== mtimeMs) {
            entry = { mtimeMs, body: gzipSync(await readFile(file), { level: 9 }) };
            compressed.set(file, entry);
          }
        } catch {
          return next();
        }
        response.writeHead(200, {
          'content-type': 'application/wasm',
          'content-encoding': 'gzip',
          'content-length': entry.body.length,
          vary: 'Accept-Encoding',
          'cache-control': 'no-cache',
        });
        response.end(request.method === 'HEAD' ? undefined : entry.body);
      });
    },
  };
}
