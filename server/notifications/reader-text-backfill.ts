/**
 * Decision 0077: notifications recorded before their reader's words were stored (migration 0038,
 * decision 0069) have reader_text NULL, so the list's search found them only by their English. At
 * each start the server writes those words for the rows that have a text key and a reader whose
 * language is not English: in batches by id, one UPDATE per batch, only where reader_text is still
 * NULL. Every replica may run it at once: each writes the same words, and a row written by one is
 * passed over by the others. Rows recorded since carry their words from the start (record.ts).
 */
import { sql } from 'drizzle-orm';
import { rowsOf, type Db } from '../db/client';
import { knownNotificationText } from '../../src/domain/notification-texts';
import { LOCALES, resolveLocale } from '../../src/domain/constants';
import { readerTextOf } from './record';

interface Waiting {
  id: number | string;
  text_key: string;
  text_params: Record<string, unknown> | string | null;
  locale: string | null;
}

/**
 * The languages whose readers get a reader text: resolveLocale's own test (the language before the
 * first - or _), so English readers' rows — most of a table — are not read at every start.
 */
const OTHER_LANGUAGES = [...new Set(LOCALES.filter((locale) => resolveLocale(locale) !== 'en-US').map((locale) => locale.slice(0, 2)))];

/**
 * Writes the missing reader texts; resolves with the number of rows written. `signal`: stops
 * between batches (a server shutting down does not wait for a long backlog; the next start goes on).
 */
export async function backfillReaderTexts(db: Db, { batch = 500, signal }: { batch?: number; signal?: AbortSignal } = {}): Promise<number> {
  let after = 0;
  let written = 0;
  for (;;) {
    if (signal?.aborted) return written;
    const rows = rowsOf<Waiting>(
      await db.execute(sql`
        select n.id, n.text_key, n.text_params, u.locale from notifications n join users u on u.id = n.user_id
        where n.reader_text is null and n.text_key is not null and n.id > ${after}
          and lower(split_part(replace(u.locale, '_', '-'), '-', 1)) = any(${sql.param(OTHER_LANGUAGES)}::text[])
        order by n.id limit ${batch}`),
    );
    if (rows.length === 0) return written;
    after = Number(rows.at(-1)!.id);
    const ids: number[] = [];
    const texts: string[] = [];
    for (const row of rows) {
      const params = typeof row.text_params === 'string' ? (JSON.parse(row.text_params) as Record<string, unknown>) : row.text_params;
      const words = readerTextOf(knownNotificationText({ key: row.text_key, params: params ?? {} }), row.locale);
      if (words === null) continue;
      ids.push(Number(row.id));
      texts.push(words);
    }
    if (ids.length === 0) continue;
    const result = await db.execute(sql`
      update notifications n set reader_text = v.words
      from (select unnest(${sql.param(ids)}::bigint[]) as id, unnest(${sql.param(texts)}::text[]) as words) v
      where n.id = v.id and n.reader_text is null
      returning n.id`);
    written += rowsOf(result).length;
  }
}
