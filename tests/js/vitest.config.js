import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['tests/js/**/*.test.js'],
    environment: 'node',
    testTimeout: 60000,
  },
});
