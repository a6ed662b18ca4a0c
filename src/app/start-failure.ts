/**
 * When the app itself cannot start (its first chunks did not load, §8: "timeout or missing"):
 * a plain page, without React, in the user's language, with a reload button. The texts are the
 * `chunkLoad` group of every locale file, inlined by the build (virtual:chunk-load-texts).
 */
import texts from 'virtual:chunk-load-texts';
import { resolveLocale } from '../domain/constants';
import { isChunkLoadError } from '../lib/chunk-load';
import { reloadNewest } from '../lib/reload-newest';

export function showStartFailure(error: unknown): void {
  console.error('The app could not start', error);
  const locale = resolveLocale(localStorage.getItem('language') ?? navigator.language);
  const text = texts[locale] ?? texts['en-US']!;
  const chunk = isChunkLoadError(error) ? error : null;
  const main = document.createElement('main');
  main.className = 'center-screen route-error';
  main.setAttribute('role', 'alert');
  const title = document.createElement('h1');
  title.className = 'page-title';
  title.textContent = chunk ? text.title : text.otherTitle;
  const body = document.createElement('p');
  body.className = 'muted';
  body.textContent = chunk ? (chunk.kind === 'timeout' ? text.timeout : text.missing) : error instanceof Error ? error.message : String(error);
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'button primary';
  button.textContent = text.reload;
  button.addEventListener('click', () => void reloadNewest());
  main.append(title, body);
  if (chunk) {
    const detail = document.createElement('p');
    detail.className = 'muted small route-error-detail';
    detail.textContent = `${chunk.kind}: ${chunk.detail}`;
    main.append(detail);
  }
  main.append(button);
  document.getElementById('root')!.replaceChildren(main);
}
