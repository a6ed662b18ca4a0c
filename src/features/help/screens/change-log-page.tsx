/**
 * The change log (§2 "Change log" screen), fed from the project's CHANGELOG.md, bundled at
 * build time and rendered from parsed blocks as text: no HTML from the file reaches the page.
 */
import { Fragment, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import changelog from '../../../../CHANGELOG.md?raw';
import { parseMarkdown, type Block, type Inline } from '../components/markdown';
import '../help.css';

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
  const { t } = useTranslation();
  const blocks = useMemo(() => parseMarkdown(changelog), []);
  return (
    <section className="page narrow-page help-page change-log">
      <h1 className="page-title route-title">{t('routes.changeLog')}</h1>
      <p className="muted">{t('changeLog.intro')}</p>
      <article className="panel">
        {blocks.map((block, index) => (
          <BlockView key={index} block={block} />
        ))}
      </article>
    </section>
  );
}
