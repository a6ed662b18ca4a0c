import { defineConfig } from 'drizzle-kit';

// Migrations are generated from the one schema and committed; the server applies them at start,
// on PGlite and on PostgreSQL alike.
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/schema.ts',
  out: './server/db/migrations',
});
