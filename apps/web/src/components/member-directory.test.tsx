import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import '../testing/editor-layout.ts';
import { RichEditor, type EditorValue } from './RichEditor.tsx';
import { SlackText } from './SlackText.tsx';
import { NO_TARGETS, TargetPickers, type PickedTargets } from './TargetPickers.tsx';
import { mockApi } from '../testing/mock-api.ts';
import { renderUi } from '../testing/render-ui.tsx';
import { seedSession } from '../testing/session-fixtures.ts';
import { MEMBERS, member, workspaceDataMocks } from '../testing/workspace-fixtures.ts';
import { mentionCandidates, useMentionLookup, useMentionNames } from '../entities/members/index.ts';

afterEach(() => vi.unstubAllGlobals());

const noDirectory = (api: ReturnType<typeof mockApi>) =>
  expect(api.calls.filter((c) => c.path.startsWith('/members/getmembers'))).toEqual([]);

function Mentions({ texts }: { texts: string[] }) {
  const names = useMentionNames();
  return (
    <>
      {texts.map((t) => (
        <SlackText key={t} text={t} names={names} />
      ))}
    </>
  );
}

describe('names of the ids on screen', () => {
  it('are looked up in one batched call, not from the whole directory', async () => {
    seedSession();
    const api = mockApi(workspaceDataMocks('T001'));
    renderUi(<Mentions texts={['Hi <@U001>', '<@U002> and <@U003> in <#C001>', 'bye <@U001> <@U404>']} />);
    expect(await screen.findByText('Hi @Ada Lovelace')).toBeInTheDocument();
    expect(await screen.findByText(/@Alan Turing and @Grace Hopper in #general/)).toBeInTheDocument();
    // Unknown ids keep their token text.
    expect(screen.getByText(/bye @Ada Lovelace @U404/)).toBeInTheDocument();
    const lookups = api.callsTo('POST', '/members/lookup');
    expect(lookups).toHaveLength(1);
    expect(lookups[0]!.body).toEqual({
      team_id: 'T001',
      member_ids: ['U001', 'U002', 'U003', 'U404'],
      entries: [],
    });
    noDirectory(api);
  });
});

function Picker({ initial, onChange }: { initial: PickedTargets; onChange(v: PickedTargets): void }) {
  const [value, setValue] = useState(initial);
  return (
    <TargetPickers
      pickers={['members']}
      value={value}
      onChange={(v) => {
        setValue(v);
        onChange(v);
      }}
    />
  );
}

describe('member picker (TargetPickers)', () => {
  it("shows the chosen members' names and searches the server as you type, at most 10 hits", async () => {
    seedSession();
    const many = [...MEMBERS, ...Array.from({ length: 30 }, (_, i) => member(`UA${i}`, `Adalbert ${i}`))];
    const api = mockApi(workspaceDataMocks('T001', { members: many }));
    const onChange = vi.fn();
    const { user } = renderUi(<Picker initial={{ ...NO_TARGETS, members: ['U003'] }} onChange={onChange} />);
    const input = screen.getByLabelText('Send Direct Message to members', { selector: 'input' });
    // The chosen id's name comes from a lookup.
    const pills = input.closest('.mantine-MultiSelect-wrapper, .mantine-InputWrapper-root') as HTMLElement;
    expect(await within(pills).findByText('Grace Hopper')).toBeInTheDocument();

    await user.type(input, 'ada');
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(10), { timeout: 3000 });
    // One search for the word, after typing stopped.
    expect(api.callsTo('GET', '/members/search/T001')).toHaveLength(1);
    await user.click(screen.getByRole('option', { name: /^Ada Lovelace/ }));
    expect(onChange).toHaveBeenLastCalledWith({ ...NO_TARGETS, members: ['U003', 'U001'] });
    noDirectory(api);
  });

  it('a pasted list of e-mails is resolved on the server (not only the 10 suggestions); misses are named', async () => {
    seedSession();
    // A member far past any suggestion list, found by e-mail all the same.
    const many = [...MEMBERS, ...Array.from({ length: 40 }, (_, i) => member(`UA${i}`, `Adalbert ${i}`))];
    const api = mockApi(workspaceDataMocks('T001', { members: many }));
    const onChange = vi.fn();
    renderUi(<Picker initial={NO_TARGETS} onChange={onChange} />);
    const input = screen.getByRole('combobox', { name: 'Send Direct Message to members' });
    fireEvent.paste(input, {
      clipboardData: {
        getData: () => 'U001@example.com, ua37@EXAMPLE.com;nobody@x.com\n Grace  ghost@y.com',
      },
    });
    const field = input.closest('.mantine-InputWrapper-root') as HTMLElement;
    expect(await within(field).findByText('Adalbert 37')).toBeInTheDocument();
    expect(within(field).getByText('Ada Lovelace')).toBeInTheDocument();
    // A name resolves too (Grace: a display name).
    expect(within(field).getByText('Grace Hopper')).toBeInTheDocument();
    expect(within(field).getByText('2 members not found: nobody@x.com, ghost@y.com')).toBeInTheDocument();
    expect(onChange).toHaveBeenLastCalledWith({ ...NO_TARGETS, members: ['U001', 'UA37', 'U003'] });
    // One lookup of the entries, trimmed; nothing loads the whole directory.
    expect(api.callsTo('POST', '/members/lookup').map((c) => c.body)).toContainEqual({
      team_id: 'T001',
      member_ids: [],
      entries: ['U001@example.com', 'ua37@EXAMPLE.com', 'nobody@x.com', 'Grace', 'ghost@y.com'],
    });
    noDirectory(api);
  });

  it('says so when the lookup fails, and keeps the entries to try again', async () => {
    seedSession();
    mockApi({
      ...workspaceDataMocks('T001'),
      'POST /members/lookup': { status: 500, body: { statusCode: 500, code: 'INTERNAL', message: 'boom' } },
    });
    renderUi(<Picker initial={NO_TARGETS} onChange={vi.fn()} />);
    const input = screen.getByRole('combobox', { name: 'Send Direct Message to members' });
    fireEvent.paste(input, { clipboardData: { getData: () => 'a@x.com b@y.com' } });
    expect(await screen.findByText('Could not look up 2 entries; try again')).toBeInTheDocument();
    expect(input).toHaveValue('a@x.com b@y.com');
    expect(screen.queryByText(/not found/)).toBeNull();
  });
});

function Editor({ onChange }: { onChange(v: EditorValue): void }) {
  const mentions = useMentionLookup();
  return <RichEditor onChange={onChange} mentions={mentions} />;
}

describe('editor @names (useMentionLookup)', () => {
  it('asks the server for the names typed after @ and turns them into member tokens', async () => {
    seedSession();
    const api = mockApi(workspaceDataMocks('T001'));
    const onChange = vi.fn<(v: EditorValue) => void>();
    const { user } = renderUi(<Editor onChange={onChange} />);
    await user.click(await screen.findByRole('textbox', { name: 'Message' }, { timeout: 10_000 }));
    await user.paste('Hi @Alan Turing, and @nobody in #general');
    await waitFor(
      () => expect(onChange.mock.calls.at(-1)![0].mrkdwn).toBe('Hi <@U002>, and @nobody in <#C001>'),
      {
        timeout: 3000,
      },
    );
    const asked = api.callsTo('POST', '/members/lookup');
    expect(asked).toHaveLength(1);
    expect((asked[0]!.body as { entries: string[] }).entries).toEqual(
      expect.arrayContaining(['Alan', 'Alan Turing', 'nobody']),
    );
    noDirectory(api);
  });

  it('candidates: up to 4 words after each @, without trailing punctuation or @here', () => {
    expect(mentionCandidates('Hi @Ada Lovelace 3 is here, @here and @bob.')).toEqual([
      'Ada',
      'Ada Lovelace',
      'Ada Lovelace 3',
      'Ada Lovelace 3 is',
      'bob',
    ]);
  });
});
