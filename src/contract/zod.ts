/**
 * The zod of the contract schemas: zod/mini, which the bundler can tree-shake (#22; classic zod
 * put all of itself, ~25 KB gzip, into the first screen's chunk). Mini loads no issue messages of
 * its own ("Invalid input" for every rule without a message of ours); classic loads the English
 * ones, which the server's 400s and the app's errors show ("Too big: expected string to have
 * <=254 characters"), so the English messages are set here, by every contract module's import,
 * as classic does: unless a locale was chosen already.
 */
import * as z from 'zod/mini';

if (!z.config().localeError) z.config(z.locales.en());

export { z };
