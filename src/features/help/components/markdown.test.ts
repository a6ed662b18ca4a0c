import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdown } from './markdown';

describe('change-log markdown', () => {
  it('reads headings, bullet lists with continuation lines and paragraphs', () => {
    const blocks = parseMarkdown('# Change log\n\nIntro text\nsecond line\n\n## 2026-05\n- First **thing**\n  continued\n* Second `code`\n');
    expect(blocks).toEqual([
      { kind: 'heading', level: 1, content: [{ kind: 'text', text: 'Change log' }] },
      { kind: 'paragraph', content: [{ kind: 'text', text: 'Intro text second line' }] },
      { kind: 'heading', level: 2, content: [{ kind: 'text', text: '2026-05' }] },
      {
        kind: 'list',
        items: [
          [{ kind: 'text', text: 'First ' }, { kind: 'strong', text: 'thing' }, { kind: 'text', text: ' ' }, { kind: 'text', text: 'continued' }],
          [{ kind: 'text', text: 'Second ' }, { kind: 'code', text: 'code' }],
        ],
      },
    ]);
  });

  it('keeps HTML as text and drops unsafe link targets', () => {
    expect(parseInline('<img src=x onerror=alert(1)>')).toEqual([{ kind: 'text', text: '<img src=x onerror=alert(1)>' }]);
    expect(parseInline('[click](javascript:alert(1))').some((part) => part.kind === 'link')).toBe(false);
    expect(parseInline('[click](data:text/html,hi)')).toEqual([{ kind: 'text', text: 'click' }]);
    expect(parseInline('[docs](https://example.com/a) and [home](/info) and [x](//evil.example)')).toEqual([
      { kind: 'link', text: 'docs', href: 'https://example.com/a' },
      { kind: 'text', text: ' and ' },
      { kind: 'link', text: 'home', href: '/info' },
      { kind: 'text', text: ' and ' },
      { kind: 'text', text: 'x' },
    ]);
  });

  it('drops a slash and backslash, which browsers read as // (another site)', () => {
    expect(parseInline('[x](/\\evil.example)')).toEqual([{ kind: 'text', text: 'x' }]);
    expect(parseInline('[x](/\\/evil.example)')).toEqual([{ kind: 'text', text: 'x' }]);
    expect(parseInline('[home](/help/a\\b)')).toEqual([{ kind: 'link', text: 'home', href: '/help/a\\b' }]);
  });
});
