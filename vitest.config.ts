import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}', 'sw/**/*.test.ts'],
          environment: 'node',
          // A bound for a test that hangs, not a speed limit: the slowest (10,000-line sheets in
          // fake-indexeddb) take a few seconds, several times that on a loaded 2-core machine.
          testTimeout: 30_000,
          // An unexpected console.error fails the test (epic-stack's rule; #19 house item).
          setupFiles: ['tests/setup/fail-on-console-error.ts'],
        },
      },
      {
        test: {
          name: 'server',
          include: ['tests/server/**/*.test.ts'],
          environment: 'node',
          // Migrates and seeds once per engine; every file starts from a copy (tests/server/template.ts).
          globalSetup: ['tests/server/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // PGlite and PostgreSQL databases are per file; two files at a time suit a 2-core machine.
          maxWorkers: 2,
        },
      },
    ],
  },
});
