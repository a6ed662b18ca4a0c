/** A new screen takes the focus: its h1, else <main>, without scrolling; focus the screen keeps or sets is left alone. */
import { describe, expect, it, vi } from 'vitest';
import { focusNewScreen } from './shell';

/** The few element members focusNewScreen uses, recording focus calls. */
function element(children: Element[] = [], h1: HTMLElement | null = null) {
  const node = {
    tabIndex: 0,
    attributes: new Set<string>(),
    focus: vi.fn(),
    hasAttribute: (name: string) => node.attributes.has(name),
    contains: (other: unknown) => other === node || children.includes(other as Element),
    querySelector: (selector: string) => (selector === 'h1' ? h1 : null),
  };
  return node;
}
const as = <T>(value: unknown) => value as T;

describe('focusNewScreen', () => {
  it('focuses the new screen’s h1 without scrolling, making it focusable', () => {
    const h1 = element();
    const main = element([as<Element>(h1)], as<HTMLElement>(h1));
    const menuLink = element();
    focusNewScreen(as<HTMLElement>(main), as<Element>(menuLink));
    expect(h1.focus).toHaveBeenCalledWith({ preventScroll: true });
    expect(h1.tabIndex).toBe(-1);
    expect(main.focus).not.toHaveBeenCalled();
  });

  it('focuses <main> when the screen has no h1 yet (still loading), also from <body>', () => {
    const main = element();
    focusNewScreen(as<HTMLElement>(main), null);
    expect(main.focus).toHaveBeenCalledWith({ preventScroll: true });
  });

  it('leaves the focus on a control of <main> that the new screen kept or focused itself', () => {
    const field = element();
    const h1 = element();
    const main = element([as<Element>(field), as<Element>(h1)], as<HTMLElement>(h1));
    focusNewScreen(as<HTMLElement>(main), as<Element>(field));
    expect(h1.focus).not.toHaveBeenCalled();
    expect(main.focus).not.toHaveBeenCalled();
  });
});
