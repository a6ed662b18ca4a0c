import { MESSAGES } from './constants';

/** §5: the five company domains by default; deployments configure their own. */
export const DEFAULT_ALLOWED_DOMAINS = ['example.com', 'example.org', 'example.net', 'lift.example', 'parts.example'];

/** §5 e-mail: local part of letters, digits and ._%+- then @ then a domain; surrounding spaces allowed. */
const EMAIL_PATTERN = /^[A-Za-z0-9._%+-]+@([A-Za-z0-9.-]+\.[A-Za-z]{2,})$/;

/** Whether `value` has the shape of an e-mail address (§5), whatever its domain. */
export const isEmailShaped = (value: string): boolean => EMAIL_PATTERN.test(value.trim());

export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}

export function emailDomain(value: string): string {
  const at = value.trim().lastIndexOf('@');
  return at < 0 ? '' : value.trim().slice(at + 1).toLowerCase();
}

export type EmailCheck = { ok: true; email: string } | { ok: false; message: string };

export function checkEmail(value: string, allowedDomains: readonly string[]): EmailCheck {
  const trimmed = value.trim();
  const match = EMAIL_PATTERN.exec(trimmed);
  if (!match) return { ok: false, message: MESSAGES.emailFormat };
  const domain = (match[1] ?? '').toLowerCase();
  if (!allowedDomains.map((d) => d.toLowerCase()).includes(domain)) {
    return { ok: false, message: MESSAGES.emailDomainNotSupported(domain) };
  }
  return { ok: true, email: normalizeEmail(trimmed) };
}

/** The domain a §5 refusal names (MESSAGES.emailDomainNotSupported), to word it in the user's language; undefined for any other message. */
export function refusedDomain(message: string): string | undefined {
  return /^Email domain (.+) not supported$/.exec(message)?.[1];
}

/** Initials of a display name or e-mail, for the avatar. */
export function initials(nameOrEmail: string): string {
  const base = nameOrEmail.includes('@') ? (nameOrEmail.split('@')[0] ?? '') : nameOrEmail;
  const parts = base.split(/[\s._-]+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0], parts[parts.length - 1]] : [parts[0]];
  return letters.map((part) => (part?.[0] ?? '').toUpperCase()).join('') || '?';
}
