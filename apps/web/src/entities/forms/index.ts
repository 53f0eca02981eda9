/*
 * Forms: the Form Table's calls (list, create, delete, send, instances, responses), the question model the
 * form editors share, and a sent form's responses page and CSV.
 * Public surface of entities/forms: import it from here, never its files (eslint.config.js).
 */
export {
  useCreateForm,
  useDeleteForm,
  useExecuteForm,
  useFormInstances,
  useFormResponses,
  useForms,
} from './api.ts';
export { downloadFormCsv, formInstancePath } from './form-export.ts';
export {
  emptyQuestions,
  newQuestion,
  QUESTION_TYPE_HINT,
  QUESTION_TYPE_LABEL,
  questionBody,
  questionProblems,
  type DraftQuestion,
  type QuestionBody,
  type FormQuestions,
} from './form-questions.ts';
