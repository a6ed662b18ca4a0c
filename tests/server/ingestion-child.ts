/**
 * A second server process for tests/server/ingestion.test.ts: claims and processes the waiting
 * ERP files of DATABASE_URL, but stops right before committing the first file and prints
 * "APPLIED <file id>", so the test can kill it (SIGKILL) in the middle of a file.
 */
import { openDatabase } from '../../server/db/client';
import { processPending } from '../../server/ingestion/queue';

async function main(): Promise<void> {
  const [databaseUrl, workerId] = process.argv.slice(2);
  if (!databaseUrl || !workerId) throw new Error('usage: ingestion-child.ts <databaseUrl> <workerId>');
  const database = await openDatabase({ databaseUrl });
  await processPending(database.db, {
    workerId,
    leaseSeconds: 60,
    hooks: {
      beforeCommit: async (file) => {
        process.stdout.write(`APPLIED ${file.id}\n`);
        await new Promise(() => undefined); // hang inside the open transaction until killed
      },
    },
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
