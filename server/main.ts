import { ConfigError, loadConfig, signInWarning } from './config';
import { startProduct } from './start';

async function main(): Promise<void> {
  const config = loadConfig();
  const startedAt = performance.now();
  const product = await startProduct(config);
  const { app } = product;
  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    `PartsTrack ready in ${Math.round(performance.now() - startedAt)} ms on ${product.database.engine}` +
      (config.localAuth ? ' with the local demo sign-in' : signInWarning(config) ? ' with nobody able to sign in (see the warning above)' : ''),
  );
  const shutdown = async (signal: string) => {
    app.log.info(`${signal}: shutting down`);
    await product.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error('PartsTrack could not start:', error);
  }
  process.exit(1);
});
