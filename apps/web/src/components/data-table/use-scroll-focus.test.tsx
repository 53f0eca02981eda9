import { render } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useScrollFocus } from './use-scroll-focus.ts';

/** jsdom lays nothing out: each box reports the sizes a test gives its element's class. */
const sizes: Record<string, { client: number; scroll: number }> = {};
function sized(el: HTMLElement) {
  const of = () => sizes[el.className] ?? { client: 0, scroll: 0 };
  Object.defineProperty(el, 'clientWidth', { get: () => of().client, configurable: true });
  Object.defineProperty(el, 'scrollWidth', { get: () => of().scroll, configurable: true });
  Object.defineProperty(el, 'clientHeight', { get: () => 100, configurable: true });
  Object.defineProperty(el, 'scrollHeight', { get: () => 100, configurable: true });
}

function Box({ name, label = 'Members' }: { name: string; label?: string }) {
  const ref = useScrollFocus(label);
  return (
    <div
      className={name}
      ref={(el) => {
        if (el) sized(el);
        ref(el);
      }}
    >
      <table />
    </div>
  );
}

describe('useScrollFocus', () => {
  it('names a box that scrolls and puts it in the tab order as it joins the page, before any resize report', () => {
    // No ResizeObserver report comes in this test: the attributes are there from the render itself.
    const observe = vi.fn();
    vi.stubGlobal(
      'ResizeObserver',
      class {
        observe = observe;
        disconnect() {}
      },
    );
    sizes.wide = { client: 300, scroll: 900 };
    sizes.fits = { client: 900, scroll: 900 };
    const { container } = render(
      <>
        <Box name="wide" />
        <Box name="fits" label="Channels" />
      </>,
    );
    const wide = container.querySelector('.wide')!;
    expect(wide.getAttribute('tabindex')).toBe('0');
    expect(wide.getAttribute('role')).toBe('group');
    expect(wide.getAttribute('aria-label')).toBe('Members');
    const fits = container.querySelector('.fits')!;
    expect(fits.hasAttribute('tabindex')).toBe(false);
    expect(fits.hasAttribute('role')).toBe(false);
    expect(observe).toHaveBeenCalledWith(wide);
    vi.unstubAllGlobals();
  });

  it('writes nothing when a resize report finds the same state, and follows a change of size', async () => {
    let report: () => void = () => {};
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(cb: () => void) {
          report = cb;
        }
        observe() {}
        disconnect() {}
      },
    );
    sizes.box = { client: 300, scroll: 900 };
    const { container } = render(<Box name="box" />);
    const box = container.querySelector('.box')!;
    const writes: string[] = [];
    const mo = new MutationObserver((rs) => rs.forEach((r) => writes.push(r.attributeName!)));
    mo.observe(box, { attributes: true });
    report();
    await Promise.resolve();
    expect(writes).toEqual([]);
    sizes.box = { client: 900, scroll: 900 };
    report();
    await Promise.resolve();
    expect(writes.sort()).toEqual(['aria-label', 'role', 'tabindex']);
    expect(box.hasAttribute('tabindex')).toBe(false);
    mo.disconnect();
    vi.unstubAllGlobals();
  });
});
