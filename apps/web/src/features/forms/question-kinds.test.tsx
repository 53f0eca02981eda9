import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  FORM_TEXTS,
  formInstancesResponse,
  formResponse,
  formResponsesResponse,
} from '@flywheel/shared/forms';
import { reply } from '../../testing/fixture.ts';
import { formRow } from '../../testing/form-fixtures.ts';
import { mockApi } from '../../testing/mock-api.ts';
import { renderApp, renderUi } from '../../testing/render.tsx';
import { loginResponse, seedSession } from '../../testing/session-fixtures.ts';
import { workspaceDataMocks } from '../../testing/workspace-fixtures.ts';
import { binsOf, summarize } from './answer-summary.ts';
import { CreateFormWizard } from './CreateFormWizard.tsx';

// jsdom has no document.fonts; Mantine's autosizing Textarea (the form's description) listens to it.
if (!('fonts' in document))
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => {}, removeEventListener: () => {} },
  });

afterEach(() => vi.unstubAllGlobals());

const me = { body: { ...loginResponse(), token: undefined } };

const DETAILS = [
  { question: 'Lunch', description: '', type: 'mcq' as const, options: ['Pizza', 'Soup'], optional: false },
  {
    question: 'Colours',
    description: '',
    type: 'checkboxes' as const,
    options: ['Red', 'Blue', 'Green'],
    optional: false,
  },
  { question: 'Onboarding', description: '', type: 'rating' as const, options: [], optional: false },
  { question: 'Recommend', description: '', type: 'yesno' as const, options: [], optional: false },
  {
    question: 'Coffees',
    description: '',
    type: 'number' as const,
    options: [],
    optional: true,
    min: 0,
    max: 12,
    decimal: false,
  },
  { question: 'Start', description: '', type: 'date' as const, options: [], optional: false },
];

const answerRow = (id: string, name: string, answers: (string | string[])[]) => ({
  member_id: id,
  name,
  email: `${name.toLowerCase()}@example.com`,
  submitted_at: '2030-01-01T10:00:00.000Z',
  answers: answers.map((a, i) =>
    Array.isArray(a)
      ? { question: DETAILS[i]!.question, answer: a.join('; '), values: a }
      : { question: DETAILS[i]!.question, answer: a },
  ),
});

const ROWS = [
  answerRow('U1', 'Ada', ['Pizza', ['Red', 'Green'], '5', 'Yes', '3', '2030-02-01']),
  answerRow('U2', 'Bob', ['Soup', ['Red'], '4', 'Yes', '1', '2030-02-02']),
  answerRow('U3', 'Cy', ['Pizza', ['Blue'], '2', 'No', '', '2030-02-03']),
];

describe('answer summaries', () => {
  it('counts each option, averages ratings, and spreads numbers (min, median, max, bars)', () => {
    const details = DETAILS.map((d, i) =>
      i === 1 ? { ...d, options: ['Red', 'Blue; or navy', 'Green'] } : d,
    );
    const rows = [
      ...ROWS.slice(0, 2),
      answerRow('U3', 'Cy', ['Pizza', ['Blue; or navy'], '2', 'No', '', '2030-02-03']),
    ];
    const [lunch, colours, rating, yesno, coffees, ...rest] = summarize(details, rows);
    expect(rest).toEqual([]); // a date has no chart
    expect(lunch).toMatchObject({
      answered: 3,
      counts: [
        { option: 'Pizza', count: 2 },
        { option: 'Soup', count: 1 },
      ],
    });
    // Checkboxes count by their values, so an option holding the separator is still one option.
    expect(colours).toMatchObject({
      answered: 3,
      counts: [
        { option: 'Red', count: 2 },
        { option: 'Blue; or navy', count: 1 },
        { option: 'Green', count: 1 },
      ],
    });
    expect(rating).toMatchObject({
      average: 3.67,
      counts: [0, 1, 0, 1, 1].map((count, i) => ({ option: String(i + 1), count })),
    });
    expect(yesno).toMatchObject({
      counts: [
        { option: 'Yes', count: 2 },
        { option: 'No', count: 1 },
      ],
    });
    expect(coffees).toMatchObject({ kind: 'number', answered: 2, min: 1, median: 2, max: 3, average: 2 });
    expect(binsOf([1, 3])).toEqual([
      { range: '1', count: 1 },
      { range: '2', count: 0 },
      { range: '3', count: 1 },
    ]);
    expect(binsOf([0, 0.5, 100]).map((b) => b.count)).toEqual([2, 0, 0, 0, 1]);
  });
});

describe('form instance page', () => {
  it('shows a bar chart per picked or counted question, with the average and the spread, above the table', async () => {
    seedSession();
    mockApi({
      'GET /auth/me': me,
      ...workspaceDataMocks('T001'),
      'GET /actions/getallforminstances/T001/7': reply(formInstancesResponse, {
        data: [
          {
            form_id: 31,
            master_form_id: 7,
            execution_time: '2030-01-01T10:00:00.000Z',
            label: '2030-01-01 10:00',
            responses: 3,
            status: 'sent',
            recipients: 3,
            receipt_id: 1,
          },
        ],
      }),
      'POST /actions/getformresponses': reply(formResponsesResponse, {
        data: {
          form_title: 'Kinds',
          instance: {
            form_id: 31,
            master_form_id: 7,
            execution_time: '2030-01-01T10:00:00.000Z',
            label: '2030-01-01 10:00',
            responses: 3,
            status: 'sent',
            recipients: 3,
            receipt_id: 1,
          },
          questions: DETAILS.map((d) => d.question),
          question_details: DETAILS,
          rows: ROWS,
        },
      }),
    });
    renderApp('/dashboard/actions/form-instances/7/31/2030-01-01%2010:00?name=Kinds');
    const charts = await screen.findByRole('region', { name: 'Answer charts' }, { timeout: 8000 });
    const images = within(charts).getAllByRole('img');
    expect(images.map((i) => i.getAttribute('aria-label'))).toEqual([
      'Lunch: Pizza 2, Soup 1',
      'Colours: Red 2, Blue 1, Green 1',
      'Onboarding: 1 0, 2 1, 3 0, 4 1, 5 1',
      'Recommend: Yes 2, No 1',
      'Coffees: 1 1, 2 0, 3 1',
    ]);
    expect(within(charts).getByText('3 answers · average 3.67 of 5')).toBeInTheDocument();
    expect(within(charts).getByText('2 answers · min 1 · median 2 · max 3 · average 2')).toBeInTheDocument();
    // The table still holds every answer, checkboxes joined.
    const table = screen.getByRole('table', { name: 'Form responses' });
    await waitFor(() => expect(within(table).getByText('Red; Green')).toBeInTheDocument());
    expect(within(table).getByText('2030-02-03')).toBeInTheDocument();
  });
});

describe('Create Form wizard: every question type', () => {
  it('adds checkboxes, number with bounds, date, rating and yes/no; bad bounds keep it from sending', async () => {
    seedSession();
    const api = mockApi({
      'GET /auth/me': me,
      ...workspaceDataMocks('T001'),
      'POST /actions/createform': reply(formResponse, {
        message: FORM_TEXTS.created,
        data: formRow(9, 'Kinds'),
      }),
    });
    const onClose = vi.fn();
    const { user } = renderUi(<CreateFormWizard opened onClose={onClose} timeZone="Europe/London" />);
    let dialog = await screen.findByRole('dialog', { name: 'Create Form' });
    await user.type(within(dialog).getByLabelText('Name of the Form'), 'Kinds');
    await user.click(within(dialog).getByRole('radio', { name: 'Bot' }));
    await user.click(within(dialog).getByLabelText('Send Form On Channel', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: '#general' }));
    const next = within(dialog).getByRole('button', { name: 'Next' });
    await waitFor(() => expect(next).toBeEnabled());
    await user.click(next);
    dialog = await screen.findByRole('dialog', { name: 'Make Your Form Questions' });
    await user.type(within(dialog).getByLabelText('Form Description'), 'Every kind');

    const setType = async (n: number, label: string) => {
      await user.click(within(dialog).getByLabelText(`Question ${n} type`, { selector: 'input' }));
      await user.click(await screen.findByRole('option', { name: label }));
    };
    const addQuestion = () => user.click(within(dialog).getByRole('button', { name: 'Add question' }));
    const title = (n: number, text: string) =>
      user.type(within(dialog).getByLabelText(`Question ${n} title`), text);

    await setType(1, 'Checkboxes (several answers)');
    await title(1, 'Colours');
    await user.type(within(dialog).getByLabelText('Question 1 option 1'), 'Red');
    await user.type(within(dialog).getByLabelText('Question 1 option 2'), 'Blue');
    await addQuestion();
    await setType(2, 'Number');
    await title(2, 'Coffees');
    await user.type(within(dialog).getByLabelText('Question 2 minimum'), '5');
    await user.type(within(dialog).getByLabelText('Question 2 maximum'), '1');
    for (const [n, label, text] of [
      [3, 'Date', 'Start'],
      [4, 'Rating 1-5', 'Onboarding'],
      [5, 'Yes / No', 'Recommend'],
    ] as const) {
      await addQuestion();
      await setType(n, label);
      await title(n, text);
    }
    expect(
      within(dialog).getByText('Members pick 1, 2, 3, 4 or 5; the results show the average.'),
    ).toBeInTheDocument();

    // A max under the min: shown under the field, nothing sent.
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect((await within(dialog).findAllByText(FORM_TEXTS.numberBounds)).length).toBeGreaterThan(0);
    expect(api.callsTo('POST', '/actions/createform')).toEqual([]);

    await user.clear(within(dialog).getByLabelText('Question 2 maximum'));
    await user.type(within(dialog).getByLabelText('Question 2 maximum'), '12');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(api.callsTo('POST', '/actions/createform')).toHaveLength(1));
    const body = api.callsTo('POST', '/actions/createform')[0]!.body as { questions: unknown[] };
    expect(body.questions).toEqual([
      { question: 'Colours', description: '', type: 'checkboxes', optional: false, options: ['Red', 'Blue'] },
      {
        question: 'Coffees',
        description: '',
        type: 'number',
        optional: false,
        options: [],
        min: 5,
        max: 12,
        decimal: false,
      },
      { question: 'Start', description: '', type: 'date', optional: false, options: [] },
      { question: 'Onboarding', description: '', type: 'rating', optional: false, options: [] },
      { question: 'Recommend', description: '', type: 'yesno', optional: false, options: [] },
    ]);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  }, 60_000);
});
