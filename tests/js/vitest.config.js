import { defineConfig } from 'vitest/config';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    include: ['tests/js/**/*.test.js'],
    environment: 'node',
    testTimeout: 60000,
    // Every core: Vitest's default leaves one free, which on CI's 2 cores ran the files one at a time.
    maxWorkers: availableParallelism(),
    // The elements import the plots' css as strings (?inline): give them the
    // real text, as the builds do, not Vitest's empty stand-in.
    css: { include: [/\/web\/plots\/[\w-]+\.css/] },
  },
});
