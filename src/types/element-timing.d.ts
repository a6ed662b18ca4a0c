/**
 * The Element Timing API's attribute (https://wicg.github.io/element-timing/): the browser records
 * when an element so marked is first painted. The count's first line carries it; the offline-start
 * benchmark reads it (#22). React passes it to the DOM as it is.
 */
import 'react';

declare module 'react' {
  // The type parameter must be named as in React's own declaration for the two to merge.
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface HTMLAttributes<T> {
    elementtiming?: string;
  }
}
