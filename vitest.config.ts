import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.{ts,tsx}', 'sw/**/*.test.ts'],
          environment: 'node',
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
