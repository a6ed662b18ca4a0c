import { Fragment } from 'react';
import { linkify } from './linkify';

/**
 * A notification body with its web addresses as links opening in a new tab and its e-mail
 * addresses as mailto links. React nodes only (never innerHTML): everything else is text.
 */
export function LinkifiedText({ text, className }: { text: string; className?: string }) {
  return (
    <span className={className ?? 'linkified'}>
      {linkify(text).map((segment, index) =>
        segment.kind === 'text' ? (
          <Fragment key={index}>{segment.text}</Fragment>
        ) : segment.kind === 'url' ? (
          <a key={index} href={segment.href} target="_blank" rel="noopener noreferrer">
            {segment.text}
          </a>
        ) : (
          <a key={index} href={segment.href}>
            {segment.text}
          </a>
        ),
      )}
    </span>
  );
}
