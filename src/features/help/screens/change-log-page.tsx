/**
 * The change log (§2 "Change log" screen), fed from the project's CHANGELOG.md and its
 * translations in locales/changelog/ (#19 item 22: in the user's language), bundled at build time
 * — each language its own chunk, loaded when the screen opens — and rendered from parsed blocks as
 * text: no HTML from a file reaches the page.
 */
import { Fragment, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import changelog from '../../../../CHANGELOG.md?raw';
import { parseMarkdown, type Block, type Inline } from '../components/markdown';
import { Spinner } from '../../../components/ui/spinner';
import '../help.css';

const TRANSLATED = import.meta.glob<string>('../../../../locales/changelog/*.md', { query: '?raw', import: 'default' });

/** The change log's text in a language: its translation when there is one, else the English file. */
export async function changeLogText(language: string): Promise<string> {
  const load = TRANSLATED[`../../../../locales/changelog/${language}.md`];
  return load ? load() : changelog;
}

function useChangeLog(language: string): string | null {
  const [loaded, setLoaded] = useState<{ language: string; text: string } | null>(null);
  useEffect(() => {
    let current = true;
    void changeLogText(language).then(
      (text) => current && setLoaded({ language, text }),
      () => current && setLoaded({ language, text: changelog }),
    );
    return () => {
      current = false;
    };
  }, [language]);
  return loaded?.language === language ? loaded.text : null;
}

function InlineText({ parts }: { parts: Inline[] }) {
  return (
    <>
      {parts.map((part, index) => {
        if (part.kind === 'code') return <code key={index}>{part.text}</code>;
        if (part.kind === 'strong') return <strong key={index}>{part.text}</strong>;
        if (part.kind === 'link') {
          const external = /^https?:/i.test(part.href);
          return (
            <a key={index} href={part.href} {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
              {part.text}
            </a>
          );
        }
        return <Fragment key={index}>{part.text}</Fragment>;
      })}
    </>
  );
}

function BlockView({ block }: { block: Block }) {
  if (block.kind === 'heading') {
    // The file's own title repeats the page title (the h1); its sections sit one level below.
    if (block.level === 1) return null;
    const Tag = block.level === 2 ? 'h2' : 'h3';
    return (
      <Tag className="section-title">
        <InlineText parts={block.content} />
      </Tag>
    );
  }
  if (block.kind === 'list') {
    return (
      <ul>
        {block.items.map((item, index) => (
          <li key={index}>
            <InlineText parts={item} />
          </li>
        ))}
      </ul>
    );
  }
  return (
    <p>
      <InlineText parts={block.content} />
    </p>
  );
}

export default function ChangeLogPage() {
  const { t, i18n } = useTranslation();
  const text = useChangeLog(i18n.language);
  // From the first version on: the file's own title and preamble repeat the page's title and intro.
  const blocks = useMemo(() => {
    if (text === null) return null;
    const all = parseMarkdown(text);
    const first = all.findIndex((block) => block.kind === 'heading' && block.level === 2);
    return first === -1 ? all : all.slice(first);
  }, [text]);
  return (
    <section className="page narrow-page help-page change-log">
      <h1 className="page-title route-title">{t('routes.changeLog')}</h1>
      <p className="muted">{t('changeLog.intro')}</p>
      {blocks === null ? (
        <Spinner label={t('loading.screen')} />
      ) : (
        <article className="panel">
          {blocks.map((block, index) => (
            <BlockView key={index} block={block} />
          ))}
        </article>
      )}
    </section>
  );
}
