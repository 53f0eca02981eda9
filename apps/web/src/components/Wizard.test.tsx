import { useState } from 'react';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Checkbox, TextInput } from '@mantine/core';
import { deferred } from '../testing/mock-api.ts';
import { renderUi } from '../testing/render.tsx';
import { Wizard } from './Wizard.tsx';

function Flow(props: { onClose(): void; onSubmit(): Promise<unknown> | void; byMessage?: boolean }) {
  const [heading, setHeading] = useState('');
  const [dm, setDm] = useState(false);
  return (
    <Wizard
      opened
      onClose={props.onClose}
      submitLabel="create Trigger"
      onSubmit={props.onSubmit}
      steps={[
        {
          title: 'Enter Message Heading',
          content: (
            <TextInput label="Heading" value={heading} onChange={(e) => setHeading(e.currentTarget.value)} />
          ),
          error: heading ? null : 'Enter a heading',
          validation: props.byMessage ? 'message' : 'disable',
        },
        {
          title: 'Compose Message',
          content: <Checkbox label="Send DM to new user" checked={dm} onChange={() => setDm(!dm)} />,
          error: dm ? null : 'Choose who gets the message',
          validation: 'message',
        },
      ]}
    />
  );
}

describe('Wizard', () => {
  it("a step's Next is disabled until the step is valid", async () => {
    const { user } = renderUi(<Flow onClose={() => {}} onSubmit={() => {}} />);
    expect(screen.getByRole('dialog', { name: 'Enter Message Heading' })).toBeInTheDocument();
    expect(screen.getByText('Step 1 of 2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next' })).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: 'Heading' }), 'Welcome');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('dialog', { name: 'Compose Message' })).toBeInTheDocument();
  });

  it("a 'message' step shows its validation message on a click and stays", async () => {
    const onSubmit = vi.fn();
    const { user } = renderUi(<Flow onClose={() => {}} onSubmit={onSubmit} byMessage />);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Enter a heading');
    expect(screen.getByRole('dialog', { name: 'Enter Message Heading' })).toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'Heading' }), 'Hi');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'create Trigger' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Choose who gets the message');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('closing step 2 returns to step 1; closing step 1 closes both', async () => {
    const onClose = vi.fn();
    const { user } = renderUi(<Flow onClose={onClose} onSubmit={() => {}} />);
    await user.type(screen.getByRole('textbox', { name: 'Heading' }), 'Welcome');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('button', { name: 'Close Compose Message' }));
    expect(screen.getByRole('dialog', { name: 'Enter Message Heading' })).toBeInTheDocument();
    // Step 1 keeps what was entered.
    expect(screen.getByRole('textbox', { name: 'Heading' })).toHaveValue('Welcome');
    expect(onClose).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('the final button is pending while the submit runs; nothing closes meanwhile', async () => {
    const done = deferred<void>();
    const onClose = vi.fn();
    const onSubmit = vi.fn(() => done.promise);
    const { user } = renderUi(<Flow onClose={onClose} onSubmit={onSubmit} />);
    await user.type(screen.getByRole('textbox', { name: 'Heading' }), 'Welcome');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(screen.getByRole('checkbox', { name: 'Send DM to new user' }));
    const submit = screen.getByRole('button', { name: 'create Trigger' });
    await user.click(submit);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(submit).toHaveAttribute('data-loading'));
    expect(screen.getByRole('button', { name: 'Back' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Close Compose Message' }));
    expect(screen.getByRole('dialog', { name: 'Compose Message' })).toBeInTheDocument();
    done.release();
    await waitFor(() => expect(submit).not.toHaveAttribute('data-loading'));
    expect(onClose).not.toHaveBeenCalled();
  });
});
