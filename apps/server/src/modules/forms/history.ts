import { FORM_CSV_EMPTY, type FormInstance, type FormResponses } from '@flywheel/shared/forms';
import { CSV_BOM, csvLine } from '@flywheel/shared/csv';
import { notFound } from '../../lib/errors.ts';
import type { FormsCore } from './core.ts';

/** What the Forms tab reads of what was sent: the instances of a form, their responses, the CSV. */
export const formHistory = ({ deps, repo, responsesRepo, toInstance }: FormsCore) => {
  /** One member's page of the data: the instance of this form in this workspace, or a 404. */
  async function instanceOf(teamId: string, formId: number, instanceId: number) {
    const inst = await repo.findInstance(teamId, instanceId);
    if (!inst || inst.form_id !== formId || inst.form_deleted)
      throw notFound('No such form instance in this workspace');
    const form = await repo.findForm(teamId, formId);
    if (!form) throw notFound('No such form instance in this workspace');
    return { inst, form };
  }

  async function responsesOf(teamId: string, formId: number, instanceId: number): Promise<FormResponses> {
    const { inst, form } = await instanceOf(teamId, formId, instanceId);
    const rows = await responsesRepo.responses(teamId, instanceId);
    return {
      form_title: form.name,
      instance: toInstance(inst, await deps.timezoneOf(teamId)),
      questions: form.questions.map((q) => q.question),
      question_details: form.questions,
      rows: rows.map((r) => ({ ...r, submitted_at: new Date(r.submitted_at).toISOString() })),
    };
  }

  return {
    async instances(teamId: string, formId: number): Promise<FormInstance[]> {
      if (!(await repo.findForm(teamId, formId))) throw notFound('No such form in this workspace');
      const tz = await deps.timezoneOf(teamId);
      return (await repo.listInstances(teamId, formId)).map((i) => toInstance(i, tz));
    },

    responses: responsesOf,

    /** 'Form details' CSV: Name, Email, Submitted At and one column per question; 'Details of no data' when empty. */
    async *csv(teamId: string, formId: number, instanceId: number): AsyncGenerator<string> {
      const data = await responsesOf(teamId, formId, instanceId);
      let out = `${CSV_BOM}${csvLine(['Name', 'Email', 'Submitted At', ...data.questions])}`;
      if (data.rows.length === 0) out += csvLine([FORM_CSV_EMPTY]);
      // A number answer is a bare number (a negative one is no formula); checkboxes are joined in `answer`.
      const cell = (a: { answer: string }, i: number) =>
        data.question_details[i]?.type === 'number' && a.answer !== '' ? Number(a.answer) : a.answer;
      for (const r of data.rows) out += csvLine([r.name, r.email, r.submitted_at, ...r.answers.map(cell)]);
      yield out;
    },
  };
};
