/**
 * #19 item 22: the change log in every language. Each translation has the English file's shape —
 * the same headings, bullets per list and paragraphs, in order, the same dates and `code` — so a
 * new English entry fails here until it is translated.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseMarkdown, type Block } from './markdown';

const ROOT = join(__dirname, '..', '..', '..', '..');
const LOCALES = ['cs-CZ', 'de-DE', 'es-ES', 'fi-FI', 'fr-FR', 'it-IT', 'pt-PT', 'sv-SE'];

const read = (path: string) => parseMarkdown(readFileSync(join(ROOT, path), 'utf8'));

function shape(blocks: Block[]): string[] {
  return blocks.map((block) => (block.kind === 'heading' ? `h${block.level}` : block.kind === 'list' ? `list of ${block.items.length}` : 'paragraph'));
}

/** What must not be translated: dates in headings and code spans. */
function verbatim(blocks: Block[]): string[] {
  const kept: string[] = [];
  for (const block of blocks) {
    const parts = block.kind === 'list' ? block.items.flat() : block.content;
    if (block.kind === 'heading') {
      const text = parts.map((part) => part.text).join('');
      if (/^\d{4}-\d{2}-\d{2}$/.test(text.trim())) kept.push(text.trim());
    }
    for (const part of parts) if (part.kind === 'code') kept.push(part.text);
  }
  return kept;
}

describe('change log translations', () => {
  const english = read('CHANGELOG.md');
  it.each(LOCALES)('%s has the English change log’s shape, dates and code', (locale) => {
    const translated = read(`locales/changelog/${locale}.md`);
    expect(shape(translated)).toEqual(shape(english));
    expect(verbatim(translated)).toEqual(verbatim(english));
  });
});
