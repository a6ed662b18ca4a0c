/**
 * Once per `vitest run` of the server project (vitest.config.ts): the template databases every
 * test file starts from (tests/server/template.ts), migrated and seeded once per engine, and
 * removed again at the end. PostgreSQL only when DATABASE_URL is set.
 */
import type { TestProject } from 'vitest/node';
import { buildPgliteTemplate, buildPostgresTemplate } from './template';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const databaseUrl = process.env.DATABASE_URL;
  const [pglite, postgres] = await Promise.allSettled([buildPgliteTemplate(), databaseUrl ? buildPostgresTemplate(databaseUrl) : Promise.resolve(null)]);
  const teardown = async () => {
    if (pglite.status === 'fulfilled') await pglite.value.remove();
    if (postgres.status === 'fulfilled') await postgres.value?.drop();
  };
  const failed = [pglite, postgres].find((result) => result.status === 'rejected');
  if (failed) {
    await teardown();
    throw failed.reason;
  }
  project.provide('serverTemplates', {
    pglite: pglite.status === 'fulfilled' ? pglite.value.path : null,
    postgres: postgres.status === 'fulfilled' ? (postgres.value?.name ?? null) : null,
  });
  return teardown;
}
