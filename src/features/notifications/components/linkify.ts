/**
 * Splits a notification body into plain text, web links and e-mail links (§2: "bodies render
 * links"). Pure and DOM-free: the caller builds React nodes from the segments, so nothing in a
 * body ever becomes markup. Only http(s) addresses become links ("www." ones get https://);
 * javascript:, data:, vbscript:, file: and every other scheme stay text.
 */
export type Segment =
  | { kind: 'text'; text: string }
  | { kind: 'url'; text: string; href: string }
  | { kind: 'email'; text: string; href: string };

/** Where a web address starts; the address runs to whitespace or a character that cannot be in one. */
const URL_START = /\b(?:https?:\/\/|www\.)/gi;
const URL_BODY = /[^\s<>"'`]+/y;
const LOCAL_CHAR = /[A-Za-z0-9._%+-]/;
const DOMAIN = /[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/y;
/** Longer candidates are text: real addresses are shorter, and the limits keep scanning linear. */
const MAX_URL = 2048;
const MAX_LOCAL = 64;
const MAX_DOMAIN = 255;
/** More links than this in one body are shown as text: a body is a message, not a link farm. */
export const MAX_LINKS = 100;

/** Trailing punctuation belongs to the sentence, not the address; a ")" only when unbalanced. */
function trimTrailing(candidate: string): string {
  let end = candidate.length;
  for (;;) {
    const last = candidate[end - 1];
    if (!last) break;
    if ('.,;:!?\'"»”’'.includes(last)) {
      end -= 1;
      continue;
    }
    if (')]}'.includes(last)) {
      const open = { ')': '(', ']': '[', '}': '{' }[last]!;
      const body = candidate.slice(0, end);
      if (body.split(open).length - 1 < body.split(last).length - 1) {
        end -= 1;
        continue;
      }
    }
    break;
  }
  return candidate.slice(0, end);
}

export function safeWebHref(text: string): string | null {
  const withScheme = /^www\./i.test(text) ? `https://${text}` : text;
  try {
    const url = new URL(withScheme);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (!url.hostname || !url.hostname.includes('.')) return null;
    return url.href;
  } catch {
    return null;
  }
}

interface Candidate {
  start: number;
  end: number;
  segment: Segment | null;
}

function urlAt(body: string, from: number): Candidate | null {
  URL_START.lastIndex = from;
  const found = URL_START.exec(body);
  if (!found) return null;
  URL_BODY.lastIndex = found.index;
  const raw = URL_BODY.exec(body)?.[0] ?? found[0];
  if (raw.length > MAX_URL) return { start: found.index, end: found.index + raw.length, segment: null };
  const text = trimTrailing(raw);
  const href = safeWebHref(text);
  return { start: found.index, end: found.index + Math.max(text.length, 1), segment: href ? { kind: 'url', text, href } : null };
}

function emailAt(body: string, from: number): Candidate | null {
  let at = body.indexOf('@', from);
  while (at >= 0) {
    let start = at;
    while (start > from && at - start < MAX_LOCAL && LOCAL_CHAR.test(body[start - 1]!)) start -= 1;
    if (start < at) {
      DOMAIN.lastIndex = 0;
      const domain = DOMAIN.exec(body.slice(at + 1, at + 1 + MAX_DOMAIN));
      if (domain) {
        const text = body.slice(start, at + 1 + domain[0].length);
        return { start, end: start + text.length, segment: { kind: 'email', text, href: `mailto:${text}` } };
      }
    }
    at = body.indexOf('@', at + 1);
  }
  return null;
}

export function linkify(body: string): Segment[] {
  const segments: Segment[] = [];
  let text = '';
  let links = 0;
  let index = 0;
  const flush = () => {
    if (text) segments.push({ kind: 'text', text });
    text = '';
  };
  let url = urlAt(body, 0);
  let email = emailAt(body, 0);
  while ((url || email) && links < MAX_LINKS) {
    // The earlier candidate wins; at the same place an e-mail address ("www.team@example.com").
    const next = email && (!url || email.start <= url.start) ? email : url!;
    text += body.slice(index, next.start);
    if (next.segment) {
      flush();
      segments.push(next.segment);
      links += 1;
    } else {
      text += body.slice(next.start, next.end);
    }
    index = next.end;
    if (url && url.start < index) url = urlAt(body, index);
    if (email && email.start < index) email = emailAt(body, index);
  }
  text += body.slice(index);
  flush();
  return segments;
}
