import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['tests/js/**/*.test.js'],
    environment: 'node',
    testTimeout: 60000,
    // The elements import the plots' css as strings (?inline): give them the
    // real text, as the builds do, not Vitest's empty stand-in.
    css: { include: [/\/web\/plots\/[\w-]+\.css/] },
  },
});
