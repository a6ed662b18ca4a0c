/**
 * An e-mail address that wraps, when it must, before its "@" (#21): a long address breaks into
 * its name and its domain instead of mid-word; only a part longer than the line breaks inside.
 */
export function Email({ address }: { address: string }) {
  const at = address.lastIndexOf('@');
  if (at <= 0) return <span className="email">{address}</span>;
  return (
    <span className="email">
      {address.slice(0, at)}
      <wbr />
      {address.slice(at)}
    </span>
  );
}
