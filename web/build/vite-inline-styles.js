// Vite plugin (build only): the page's stylesheet goes into its HTML, as a
// <style> in <head>, instead of a file fetched beside it. A file can come after
// the document is parsed (it shares the first connections with the worker,
// the page's modules and the fonts): Chromium then lays out the whole page
// without styles when parsing ends, without `content-visibility: auto`
// (styles.css) keeping the sections off screen out of layout, and lays it all
// out again once the styles come. A stylesheet in the document is there at the
// first layout, and the first paint waits for no request. (The page's CSP
// allows inline styles.)
import { posix } from 'node:path';

/** url(…) references in `css`, read from `cssFile`, rewritten relative to `htmlFile` (both paths in the build). */
export function rebaseUrls(css, cssFile, htmlFile) {
  const from = posix.dirname(cssFile);
  const to = posix.dirname(htmlFile);
  return css.replace(/url\((["']?)([^)"']+)\1\)/g, (whole, quote, url) => {
    // Absolute, data: and fragment references mean the same from anywhere.
    if (/^([a-z][\w+.-]*:|\/|#)/i.test(url)) return whole;
    const target = posix.normalize(posix.join(from, url));
    let relative = posix.relative(to, target);
    if (!relative.startsWith('.')) relative = `./${relative}`;
    return `url(${quote}${relative}${quote})`;
  });
}

/** Leaves `file` out of the build's `bundle` unless another page, chunk or file names it (its content now inline). */
export function dropUnlessNamed(bundle, file) {
  const name = posix.basename(file);
  const named = Object.values(bundle).some((other) => {
    const text = other.type === 'chunk' ? other.code : other.source;
    return other.fileName !== file && typeof text === 'string' && text.includes(name);
  });
  if (!named) delete bundle[file];
}

/** htmlFiles: the built documents whose stylesheets are put inline (the start page, the chapters). */
export function inlineStylesPlugin({ htmlFiles }) {
  return {
    name: 'posenc-inline-styles',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_, bundle) {
        const inlined = new Set();
        for (const htmlFile of htmlFiles) {
          const page = bundle[htmlFile];
          if (!page) this.error(`posenc-inline-styles: no ${htmlFile} in the build`);
          const links = /<link\b[^>]*\brel="stylesheet"[^>]*\bhref="\.\/([^"]+\.css)"[^>]*>/g;
          let html = String(page.source);
          let found = 0;
          html = html.replace(links, (link, file) => {
            const asset = bundle[file];
            if (!asset || asset.type !== 'asset') this.error(`posenc-inline-styles: ${file} is not in the build`);
            const css = rebaseUrls(String(asset.source), file, htmlFile);
            if (/<\/style/i.test(css)) this.error(`posenc-inline-styles: ${file} holds "</style"`);
            inlined.add(file);
            found++;
            return `<style>${css}</style>`;
          });
          if (found === 0) this.error(`posenc-inline-styles: no stylesheet link in ${htmlFile}`);
          page.source = html;
        }
        for (const file of inlined) dropUnlessNamed(bundle, file);
      },
    },
  };
}
