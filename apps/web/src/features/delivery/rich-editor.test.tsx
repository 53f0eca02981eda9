import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import '../../testing/editor-layout.ts';
import { DELIVERY_TEXTS } from '@flywheel/shared/delivery';
import { RichEditor, type EditorValue } from '../../components/RichEditor.tsx';
import { renderUi } from '../../testing/render-ui.tsx';

const EDITOR_LOAD = { timeout: 10_000 };

async function setup() {
  const onChange = vi.fn<(v: EditorValue) => void>();
  const view = renderUi(
    <RichEditor
      onChange={onChange}
      mentions={{
        members: [{ id: 'U01', display_name: 'ada', real_name: 'Ada Lovelace' }],
        channels: [{ id: 'C01', name: 'general' }],
      }}
    />,
  );
  const box = await screen.findByRole('textbox', { name: 'Message' }, EDITOR_LOAD);
  await view.user.click(box);
  const last = () => onChange.mock.calls.at(-1)![0];
  return { ...view, box, onChange, last };
}

describe('RichEditor', () => {
  it('reports html, mrkdwn (with tokens for known names) and text as the user writes', async () => {
    const { user, onChange, last } = await setup();
    await user.paste('Hi @here, @ada & #general');
    await waitFor(() => expect(onChange).toHaveBeenCalled());
    expect(last().text).toBe('Hi @here, @ada & #general');
    expect(last().mrkdwn).toBe('Hi <!here>, <@U01> &amp; <#C01>');
    expect(last().html).toBe('<p>Hi @here, @ada &amp; #general</p>');
  });

  it('bold from the toolbar becomes *bold*', async () => {
    const { user, box, last } = await setup();
    await user.paste('loud');
    fireEvent.keyDown(box, { key: 'a', ctrlKey: true });
    await user.click(screen.getByRole('button', { name: 'Bold' }));
    await waitFor(() => expect(last().mrkdwn).toBe('*loud*'));
  });

  it('Slack shorthand: *x* is bold (not Markdown italic) and _x_ italic', async () => {
    const { user, last } = await setup();
    await user.paste('say *hi* and _so_ now');
    await waitFor(() => expect(last().html).toBe('<p>say <strong>hi</strong> and <em>so</em> now</p>'));
    expect(last().mrkdwn).toBe('say *hi* and _so_ now');
  });

  it('shows the documented text for invalid characters', async () => {
    const { user } = await setup();
    await user.paste('bell \u0007 here');
    expect(await screen.findByText(DELIVERY_TEXTS.invalidCharacters)).toBeInTheDocument();
  });

  it('inserts an emoji from the picker', async () => {
    const { user, last } = await setup();
    await user.click(screen.getByRole('button', { name: 'Insert emoji' }));
    await user.type(screen.getByRole('textbox', { name: 'Search emoji' }), 'tada');
    await user.click(screen.getByRole('button', { name: ':tada:' }));
    await waitFor(() => expect(last().text).toBe('🎉'));
  });

  it('the copy shortcut does nothing in the editor', async () => {
    const { box } = await setup();
    const ctrl = fireEvent.keyDown(box, { key: 'c', ctrlKey: true });
    const meta = fireEvent.keyDown(box, { key: 'c', metaKey: true });
    const plain = fireEvent.keyDown(box, { key: 'c' });
    expect([ctrl, meta, plain]).toEqual([false, false, true]);
  });
});
