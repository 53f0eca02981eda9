import { describe, expect, it } from 'vitest';
import { createFormBody as bodySchema, FORM_TEXTS } from '@flywheel/shared/forms';
import { emptyQuestions, newQuestion, questionProblems } from '../../entities/forms/index.ts';
import { createFormBody, EMPTY_FORM_START, startProblems, type FormStart } from './form-draft.ts';

const NOW = Date.parse('2027-03-19T12:00:00Z');
const ready: FormStart = {
  ...EMPTY_FORM_START,
  name: 'Check-in',
  sender: { sender: 'bot', adminUser: null },
  dm: { members: ['U1'], tags: [], channels: [] },
};

describe('form wizard checks', () => {
  it('step 1: Next waits for a name and a sender, then asks for a target and a future time', () => {
    expect(startProblems(EMPTY_FORM_START, 'UTC', NOW).basic).toBe(FORM_TEXTS.noFieldEmpty);
    expect(startProblems({ ...ready, dm: { members: [], tags: [], channels: [] } }, 'UTC', NOW).detail).toBe(
      'Select at least one member and/or channel and/or tag',
    );
    expect(startProblems(ready, 'UTC', NOW)).toEqual({ basic: null, detail: null });
    expect(startProblems({ ...ready, instant: false, at: '2027-03-19T11:00' }, 'UTC', NOW).detail).toBe(
      "Scheduled time can't be less than current time.",
    );
    expect(startProblems({ ...ready, instant: false, at: '2027-03-20T11:00' }, 'UTC', NOW).detail).toBe(null);
    expect(
      startProblems({ ...ready, recurring: true, frequency: 'Weekly', time: '09:00' }, 'UTC', NOW).detail,
    ).toBe(FORM_TEXTS.noFieldEmpty);
  });

  it('step 2: description, question titles and option values, with their texts', () => {
    const q = emptyQuestions();
    expect(questionProblems(q).first).toBe("Form Description can't be empty");
    const mcq = { ...newQuestion('mcq'), heading: 'Pick one' };
    const withMcq = { ...q, description: 'About', questions: [{ ...q.questions[0]!, heading: 'Why?' }, mcq] };
    expect(questionProblems(withMcq).first).toBe("Option Value can't be empty");
    const untitled = { ...withMcq, questions: [{ ...q.questions[0]!, heading: ' ' }] };
    expect(questionProblems(untitled).first).toBe("Ques title can't be empty.");
    const six = { ...withMcq, questions: [{ ...mcq, options: ['1', '2', '3', '4', '5', '6'] }] };
    expect(questionProblems(six).first).toBe('Max 5 options are allowed');
  });

  it('builds a body the API contract accepts, with the default acknowledgement', () => {
    const q = emptyQuestions();
    const body = createFormBody(
      'T1',
      { ...ready, recurring: true, frequency: 'Weekly', days: ['mon', 'fri'], time: '09:30' },
      {
        ...q,
        description: 'Weekly',
        questions: [
          { ...q.questions[0]!, heading: 'Wins?' },
          { ...newQuestion('mcq'), heading: 'Mood', options: ['Good', 'Bad'] },
          { ...newQuestion('shortDesc'), heading: 'One word', optional: true },
        ],
      },
    );
    const parsed = bodySchema.parse(body);
    expect(parsed).toMatchObject({
      recurring: true,
      frequency: 'Weekly',
      days: ['mon', 'fri'],
      time: '09:30',
      ackMessage: 'Your response has been recorded successfully',
    });
    expect(parsed.questions.map((x) => x.type)).toEqual(['descriptive', 'mcq', 'shortDesc']);
  });
});
