import { useState } from 'react';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderUi } from '../testing/render.tsx';
import { LazyModal } from './LazyModal.tsx';
import { LazyTooltip } from './LazyTooltip.tsx';
import { Segmented } from './segmented/Segmented.tsx';

function WithModal() {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <button onClick={() => setOpened(true)}>Open</button>
      <LazyModal opened={opened} onClose={() => setOpened(false)} title="Choose dates">
        <p>Inside</p>
      </LazyModal>
    </>
  );
}

describe('LazyModal', () => {
  it('is not in the page before it first opens; opens, closes and opens again like a Modal', async () => {
    const user = userEvent.setup();
    // A closed Mantine Modal is rendered all the same: its root, portal and transition, and a window keydown
    // listener (for Escape). This one is not there at all until it opens.
    const listen = vi.spyOn(window, 'addEventListener');
    renderUi(<WithModal />);
    expect(listen.mock.calls.filter(([type]) => type === 'keydown')).toEqual([]);
    listen.mockRestore();
    expect(screen.queryByText('Inside')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByRole('dialog', { name: 'Choose dates' })).toBeInTheDocument();
    expect(screen.getByText('Inside')).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByText('Inside')).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Open' }));
    expect(await screen.findByText('Inside')).toBeInTheDocument();
  });

  it('opened from the start, it is there at once', () => {
    renderUi(
      <LazyModal opened onClose={() => undefined} title="Now">
        <p>Now inside</p>
      </LazyModal>,
    );
    expect(screen.getByText('Now inside')).toBeInTheDocument();
  });
});

describe('LazyTooltip', () => {
  it('adds the tooltip when its target is first pointed at, and keeps the target', async () => {
    const user = userEvent.setup();
    renderUi(
      <LazyTooltip label="tada: 12%">
        <span>tada</span>
      </LazyTooltip>,
    );
    expect(document.querySelector('[data-portal]')).toBeNull();
    await user.hover(screen.getByText('tada'));
    expect(await screen.findByRole('tooltip')).toHaveTextContent('tada: 12%');
    expect(screen.getByText('tada')).toBeInTheDocument();
  });
});

describe('Segmented', () => {
  it('is a named radio group: the value is checked, a click or an arrow key chooses another', async () => {
    const user = userEvent.setup();
    function Toggle() {
      const [v, setV] = useState('graph');
      return (
        <>
          <Segmented
            aria-label="View"
            value={v}
            onChange={setV}
            data={[{ value: 'graph', label: 'Graph' }, 'table']}
          />
          <output>{v}</output>
        </>
      );
    }
    renderUi(<Toggle />);
    expect(screen.getByRole('radiogroup', { name: 'View' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Graph' })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: 'table' }));
    expect(screen.getByRole('status')).toHaveTextContent('table');
    expect(screen.getByRole('radio', { name: 'table' })).toBeChecked();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByRole('radio', { name: 'Graph' })).toBeChecked();
    expect(screen.getByRole('status')).toHaveTextContent('graph');
  });
});
