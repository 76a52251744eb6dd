// POSENC_SITE_URL of web/scripts/link-previews.mjs: the folder the absolute
// preview URLs are resolved against, checked before any work.
import { describe, expect, it } from 'vitest';
import { siteBase } from '../../../web/scripts/link-previews.mjs';

describe('link-previews: siteBase(POSENC_SITE_URL)', () => {
  it('is null when unset or empty (relative URLs)', () => {
    expect(siteBase(undefined)).toBe(null);
    expect(siteBase('')).toBe(null);
  });

  it('keeps the last path segment with or without a trailing slash', () => {
    for (const value of ['https://example.org/posenc', 'https://example.org/posenc/']) {
      const base = siteBase(value);
      expect(new URL('og/page.png', base).href).toBe('https://example.org/posenc/og/page.png');
      expect(new URL('./', base).href).toBe('https://example.org/posenc/');
    }
    expect(new URL('embed.html', siteBase('http://localhost:8080')).href).toBe('http://localhost:8080/embed.html');
  });

  it('refuses javascript:, data:, other schemes, relative URLs and queries at once, naming POSENC_SITE_URL', () => {
    for (const value of [
      'javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'file:///etc/',
      'ftp://example.org/',
      'example.org/posenc',
      '/posenc/',
      'https://example.org/posenc/?a=1',
      'https://example.org/posenc/#top',
    ])
      expect(() => siteBase(value), value).toThrow(/^link-previews: POSENC_SITE_URL must/);
    expect(() => siteBase('javascript:alert(1)')).toThrow(TypeError);
  });
});
