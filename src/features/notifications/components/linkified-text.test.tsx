import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { LinkifiedText } from './linkified-text';
import { linkify, MAX_LINKS } from './linkify';

const render = (text: string) => renderToStaticMarkup(<LinkifiedText text={text} />);

/** Every <a> in the markup, with its attributes. */
function anchors(html: string): Array<Record<string, string>> {
  return [...html.matchAll(/<a ([^>]*)>/g)].map((m) => Object.fromEntries([...m[1]!.matchAll(/(\w+)="([^"]*)"/g)].map((a) => [a[1]!, a[2]!])));
}

/** The only tags allowed in the output: our span and our anchors. */
function tags(html: string): string[] {
  return [...html.matchAll(/<\/?([a-zA-Z][\w-]*)/g)].map((m) => m[1]!.toLowerCase());
}

describe('linkify', () => {
  it('turns web and e-mail addresses into links, keeping sentence punctuation outside', () => {
    expect(linkify('Track it: https://parcels.example/t/123. Questions: logistics@example.com!')).toEqual([
      { kind: 'text', text: 'Track it: ' },
      { kind: 'url', text: 'https://parcels.example/t/123', href: 'https://parcels.example/t/123' },
      { kind: 'text', text: '. Questions: ' },
      { kind: 'email', text: 'logistics@example.com', href: 'mailto:logistics@example.com' },
      { kind: 'text', text: '!' },
    ]);
    expect(linkify('(see www.example.com/a_(b))')).toEqual([
      { kind: 'text', text: '(see ' },
      { kind: 'url', text: 'www.example.com/a_(b)', href: 'https://www.example.com/a_(b)' },
      { kind: 'text', text: ')' },
    ]);
  });

  it('keeps text without addresses as one text segment', () => {
    expect(linkify('Pickup code 1234, back to sender after 7 days')).toEqual([{ kind: 'text', text: 'Pickup code 1234, back to sender after 7 days' }]);
    expect(linkify('')).toEqual([]);
  });
});

describe('hostile bodies render inert', () => {
  const corpus: Array<[string, string]> = [
    ['javascript link', 'click javascript:alert(document.cookie) now'],
    ['javascript in an http-looking text', 'http://javascript:alert(1)'],
    ['data link', 'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=='],
    ['vbscript', 'vbscript:msgbox(1)'],
    ['img onerror', '<img src=x onerror="alert(1)">'],
    ['script', '<script>alert(1)</script>'],
    ['nested markup', '<div><a href="javascript:alert(1)">x</a><svg onload=alert(1)><b>bold</b></svg></div>'],
    ['url breaking out of the attribute', 'https://example.com/"><img src=x onerror=alert(1)>'],
    ['url with quotes and brackets', "https://example.com/'onmouseover='alert(1)' <b>"],
    ['mailto with header injection', 'x@example.com?cc=victim@example.com&body=<script>'],
    ['entity tricks', '&lt;script&gt;alert(1)&lt;/script&gt; &#106;avascript:alert(1)'],
    ['unicode look-alikes', 'https://exаmple.com/\u202Egpj.exe'],
  ];

  it.each(corpus)('%s', (_name, body) => {
    const html = render(body);
    expect(tags(html).every((tag) => tag === 'span' || tag === 'a')).toBe(true);
    for (const a of anchors(html)) {
      expect(a.href).toMatch(/^(https?:\/\/|mailto:)/);
      expect(Object.keys(a).every((name) => ['href', 'target', 'rel'].includes(name))).toBe(true);
      if (a.href!.startsWith('http')) {
        expect(a.target).toBe('_blank');
        expect(a.rel).toBe('noopener noreferrer');
      }
    }
    expect(html).not.toMatch(/<(img|script|svg|div|b)\b/i);
    // What the user sees is exactly the body they were sent.
    const visible = html.replace(/<[^>]+>/g, '').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&quot;', '"').replaceAll('&#x27;', "'").replaceAll('&amp;', '&');
    expect(visible).toBe(body);
  });

  it('never links javascript:, data: or other schemes', () => {
    for (const body of ['javascript:alert(1)', 'JAVASCRIPT://example.com/%0Aalert(1)', 'data:text/html,<b>x</b>', 'file:///etc/passwd', 'ftp://example.com/x']) {
      expect(anchors(render(body))).toEqual([]);
    }
  });

  it('renders very long text completely and fast, capping the number of links', () => {
    const long = 'A'.repeat(200_000);
    const started = performance.now();
    expect(render(long)).toBe(`<span class="linkified">${long}</span>`);
    const manyLinks = Array.from({ length: MAX_LINKS + 50 }, (_, i) => `https://example.com/${i}`).join(' ');
    const html = render(manyLinks);
    expect(anchors(html)).toHaveLength(MAX_LINKS);
    expect(html).toContain(`https://example.com/${MAX_LINKS + 49}`);
    const almostEmails = 'a@'.repeat(20_000);
    expect(anchors(render(almostEmails))).toEqual([]);
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});
