/** Wires the notification dispatcher from the environment (see config.ts for the variables). */
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { loadNotificationConfig } from './config';
import { createDispatcher, type Dispatcher } from './dispatcher';
import { createTransports } from './transports';

export async function startNotificationDispatch(
  db: Db,
  log: FastifyBaseLogger,
  env: Record<string, string | undefined> = process.env,
): Promise<Pick<Dispatcher, 'runOnce' | 'stop'>> {
  const config = loadNotificationConfig(env);
  const transports = await createTransports(config);
  log.info(
    { email: Boolean(config.smtp), sms: Boolean(config.sms), push: Boolean(config.fcm) },
    'notification transports (unconfigured ones record and log)',
  );
  const dispatcher = createDispatcher({ db, transports, log, appUrl: config.appUrl, intervalMs: config.dispatchIntervalMs });
  dispatcher.start();
  return {
    runOnce: () => dispatcher.runOnce(),
    async stop() {
      await dispatcher.stop();
      await transports.close();
    },
  };
}
