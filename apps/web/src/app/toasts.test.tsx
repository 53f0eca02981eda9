import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { notifyInfo } from '../lib/notify.tsx';
import { renderUi } from '../testing/render.tsx';

describe('toasts', () => {
  it('show top-right below the 64 px header, never over the workspace switcher and avatar', async () => {
    renderUi(<p>page</p>);
    act(() => notifyInfo('Saved for later'));
    const toast = await screen.findByText('Saved for later');
    const container = toast.closest<HTMLElement>('[data-position]')!;
    expect(container).toHaveAttribute('data-position', 'top-right');
    expect(container).toHaveClass('app-toasts');
    // jsdom applies no stylesheet: the class's rule must move them below the header.
    const css = readFileSync(join(__dirname, 'global.css'), 'utf8');
    const rule = /\.app-toasts\[data-position='top-right'\]\s*\{([^}]*)\}/.exec(css)?.[1] ?? '';
    const top = /top:\s*calc\((\d+)px/.exec(rule)?.[1];
    expect(Number(top)).toBeGreaterThanOrEqual(64);
  });
});
