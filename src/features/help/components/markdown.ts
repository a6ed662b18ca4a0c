/**
 * A deliberately small Markdown reader for CHANGELOG.md: headings (#, ##, ###), bullet lists
 * (- or *), paragraphs, and inline `code`, **bold** and [links](https://…). It returns plain
 * data that React renders as text nodes, so nothing in the file can inject HTML or script;
 * link targets other than http(s) and site-relative paths are dropped to plain text.
 */

export type Inline = { kind: 'text'; text: string } | { kind: 'code'; text: string } | { kind: 'strong'; text: string } | { kind: 'link'; text: string; href: string };

export type Block =
  | { kind: 'heading'; level: 1 | 2 | 3; content: Inline[] }
  | { kind: 'list'; items: Inline[][] }
  | { kind: 'paragraph'; content: Inline[] };

// A site-relative path is one slash and then not a second one: browsers read a backslash as a
// slash, so `/\evil.example` (like `//evil.example`) would lead off the site.
const SAFE_HREF = /^(https?:\/\/|\/(?![/\\]))/i;

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  const pattern = /`([^`]+)`|\*\*([^*]+)\*\*|\[([^\]]+)\]\(([^)\s]+)\)/g;
  let last = 0;
  for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
    if (match.index > last) out.push({ kind: 'text', text: text.slice(last, match.index) });
    if (match[1] !== undefined) out.push({ kind: 'code', text: match[1] });
    else if (match[2] !== undefined) out.push({ kind: 'strong', text: match[2] });
    else if (match[3] !== undefined && match[4] !== undefined) {
      out.push(SAFE_HREF.test(match[4]) ? { kind: 'link', text: match[3], href: match[4] } : { kind: 'text', text: match[3] });
    }
    last = pattern.lastIndex;
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last) });
  return out;
}

export function parseMarkdown(source: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let list: Inline[][] | null = null;
  const flush = () => {
    if (paragraph.length) blocks.push({ kind: 'paragraph', content: parseInline(paragraph.join(' ')) });
    paragraph = [];
    if (list) blocks.push({ kind: 'list', items: list });
    list = null;
  };
  for (const raw of source.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trimEnd();
    const heading = /^(#{1,3})\s+(.*)$/.exec(line);
    const bullet = /^\s*[-*]\s+(.*)$/.exec(line);
    if (line.trim() === '') {
      flush();
    } else if (heading) {
      flush();
      blocks.push({ kind: 'heading', level: heading[1]!.length as 1 | 2 | 3, content: parseInline(heading[2]!.trim()) });
    } else if (bullet) {
      if (paragraph.length) {
        blocks.push({ kind: 'paragraph', content: parseInline(paragraph.join(' ')) });
        paragraph = [];
      }
      (list ??= []).push(parseInline(bullet[1]!.trim()));
    } else if (list && /^\s{2,}\S/.test(raw)) {
      // A continuation line of the last bullet.
      const items: Inline[][] = list;
      items[items.length - 1] = [...items[items.length - 1]!, { kind: 'text', text: ' ' }, ...parseInline(line.trim())];
    } else {
      if (list) {
        blocks.push({ kind: 'list', items: list });
        list = null;
      }
      paragraph.push(line.trim());
    }
  }
  flush();
  return blocks;
}
