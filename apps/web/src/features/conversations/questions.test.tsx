import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { messageResponse } from '@flywheel/shared/http';
import { questionsResponse, type Question } from '@flywheel/shared/questions';
import { reply } from '../../testing/fixture.ts';
import { mockApi } from '../../testing/mock-api.ts';
import { renderApp } from '../../testing/render.tsx';
import { WORKSPACES, loginResponse, seedSession } from '../../testing/session-fixtures.ts';
import type { Role } from '@flywheel/shared/roles';
import { workspaceDataMocks } from '../../testing/workspace-fixtures.ts';

const me = { body: { ...loginResponse(), token: undefined } };
const T0 = Date.parse('2026-11-20T10:00:00Z');
const question = (ts: string, extra: Partial<Question> = {}): Question => ({
  ts,
  channel_id: 'C001',
  channel_name: 'general',
  sender: 'Grace Hopper',
  sender_id: 'U003',
  content: 'Where is the onboarding wiki? <img src=x onerror=alert(1)>',
  posted_at: T0,
  edited: false,
  replies: 0,
  reactions: 0,
  is_pinned: false,
  permalink: `https://acme.slack.com/archives/C001/p${ts.replace('.', '')}`,
  ...extra,
});

function setup(data: Question[], extra: Parameters<typeof mockApi>[0] = {}, role: Role = 'owner') {
  const workspaces = WORKSPACES.map((w) => (w.team_id === 'T001' ? { ...w, role } : w));
  seedSession({ workspace: workspaces });
  let handled = false;
  const api = mockApi({
    'GET /auth/me': role === 'owner' ? me : { body: { ...loginResponse({ workspaces }), token: undefined } },
    ...workspaceDataMocks('T001'),
    // After 'Mark handled' the server leaves the question out.
    'GET /questions/getquestions/T001': () => {
      const rows = handled ? data.slice(1) : data;
      return reply(questionsResponse, { data: rows, total: rows.length, next_cursor: null });
    },
    'POST /questions/markhandled': () => {
      handled = true;
      return reply(messageResponse, { message: 'Marked handled' });
    },
    'POST /quickaction/addreaction': reply(messageResponse, { message: 'Reacted with :thumbsup:' }),
    ...extra,
  });
  return api;
}

describe('Questions tab', () => {
  it('a Viewer reads the questions but Mark handled is disabled, saying why', async () => {
    const api = setup([question('1763632900.000100')], {}, 'viewer');
    const { user } = renderApp('/dashboard/actions/questions');
    const [card] = await screen.findAllByTestId('question-card', {}, { timeout: 8000 });
    const mark = within(card!).getByRole('button', { name: "Mark handled: Grace Hopper's question" });
    expect(mark).toBeDisabled();
    await user.hover(mark.parentElement!);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(/Viewers can't send/);
    expect(api.callsTo('POST', '/questions/markhandled')).toHaveLength(0);
  });

  it('lists unanswered questions as text with their count; Mark handled sends the message and the list reads again', async () => {
    const api = setup([
      question('1763632900.000100'),
      question('1763632800.000100', { sender: 'Alan Turing' }),
    ]);
    const { user } = renderApp('/dashboard/actions/questions');
    const cards = await screen.findAllByTestId('question-card', {}, { timeout: 8000 });
    expect(cards).toHaveLength(2);
    expect(screen.getByText('2 unanswered')).toBeInTheDocument();
    // User content is text, never markup.
    expect(within(cards[0]!).getByText(/<img src=x onerror=alert\(1\)>/)).toBeInTheDocument();
    expect(document.querySelector('img[src="x"]')).toBeNull();
    expect(
      within(cards[0]!).getByRole('link', { name: "Open Grace Hopper's question in Slack" }),
    ).toHaveAttribute('href', 'https://acme.slack.com/archives/C001/p1763632900000100');
    const first = api.callsTo('GET', '/questions/getquestions/T001')[0]!.query;
    expect([first.get('max_age_days'), first.get('answer_after_minutes')]).toEqual(['7', '120']);

    await user.click(
      within(cards[0]!).getByRole('button', { name: "Mark handled: Grace Hopper's question" }),
    );
    await waitFor(() => expect(screen.getAllByTestId('question-card')).toHaveLength(1));
    expect(api.callsTo('POST', '/questions/markhandled')[0]!.body).toEqual({
      team_id: 'T001',
      channel_id: 'C001',
      ts: '1763632900.000100',
    });
    expect(screen.getByText('1 unanswered')).toBeInTheDocument();
  });

  it('reacts through the workbench route; channel, age and search go to the server', async () => {
    const api = setup([question('1763632900.000100')]);
    const { user } = renderApp('/dashboard/actions/questions');
    const card = await screen.findByTestId('question-card', {}, { timeout: 8000 });
    await user.click(within(card).getByRole('button', { name: "React to Grace Hopper's question" }));
    await waitFor(() => expect(api.callsTo('POST', '/quickaction/addreaction')).toHaveLength(1));
    expect(api.callsTo('POST', '/quickaction/addreaction')[0]!.body).toMatchObject({
      channel_id: 'C001',
      ts: '1763632900.000100',
      name: 'thumbsup',
    });

    await user.type(screen.getByRole('textbox', { name: 'Search questions' }), 'wiki');
    await waitFor(() =>
      expect(
        api.callsTo('GET', '/questions/getquestions/T001').some((c) => c.query.get('q') === 'wiki'),
      ).toBe(true),
    );
    await user.click(screen.getByRole('combobox', { name: 'Asked in' }));
    await user.click(await screen.findByRole('option', { name: 'Last 30 days' }));
    await waitFor(() =>
      expect(
        api.callsTo('GET', '/questions/getquestions/T001').some((c) => c.query.get('max_age_days') === '30'),
      ).toBe(true),
    );
    await user.click(screen.getByRole('combobox', { name: 'Unanswered for' }));
    await user.click(await screen.findByRole('option', { name: 'Any time' }));
    await waitFor(() =>
      expect(
        api
          .callsTo('GET', '/questions/getquestions/T001')
          .some((c) => c.query.get('answer_after_minutes') === '0'),
      ).toBe(true),
    );
  });

  it('says so when every question has an answer, and shows a failure', async () => {
    setup([]);
    renderApp('/dashboard/actions/questions');
    expect(
      await screen.findByText('Every question has an answer', {}, { timeout: 8000 }),
    ).toBeInTheDocument();
    expect(screen.getByText('0 unanswered')).toBeInTheDocument();
  });

  it('shows an error the server sends', async () => {
    setup([], {
      'GET /questions/getquestions/T001': {
        status: 400,
        body: { statusCode: 400, code: 'VALIDATION_ERROR', message: 'max_age_days must be at most 90' },
      },
    });
    renderApp('/dashboard/actions/questions');
    expect(
      await screen.findByText('Questions could not be loaded', {}, { timeout: 8000 }),
    ).toBeInTheDocument();
  });
});
