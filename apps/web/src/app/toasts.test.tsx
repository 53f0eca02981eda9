import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Button, Menu } from '@mantine/core';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { notifications } from '@mantine/notifications';
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

  it('an open menu shows above a toast (a toast below the header can reach into a dropdown: never cover its items)', async () => {
    renderUi(
      <Menu>
        <Menu.Target>
          <Button>Workspaces</Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item>Review Community 2</Menu.Item>
        </Menu.Dropdown>
      </Menu>,
    );
    // One that stays until closed, so that a slow machine still has it showing when the menu opens.
    act(() =>
      notifications.show({
        title: 'Attention',
        message: 'Video Community 1 is connected again.',
        autoClose: false,
      }),
    );
    await screen.findByText('Video Community 1 is connected again.');
    await userEvent.click(screen.getByRole('button', { name: 'Workspaces' }));
    const item = await screen.findByRole('menuitem', { name: 'Review Community 2' });
    const menu = item.closest<HTMLElement>('[role="menu"]')!;
    // Still showing while the menu is open.
    const toasts = screen
      .getByText('Video Community 1 is connected again.')
      .closest<HTMLElement>('.app-toasts')!;
    // Mantine sets both layers inline: the dropdown's z-index, the toasts' through a custom property.
    const toastLayer = Number(
      toasts.style.getPropertyValue('--notifications-z-index') || toasts.style.zIndex,
    );
    expect(toastLayer).toBeGreaterThan(0);
    expect(Number(menu.style.zIndex)).toBeGreaterThan(toastLayer);
  });
});
