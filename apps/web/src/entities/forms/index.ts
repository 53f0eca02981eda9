export { downloadFormCsv, formInstancePath } from './form-export.ts';
export {
  emptyQuestions,
  newQuestion,
  QUESTION_TYPE_LABEL,
  questionProblems,
  type DraftQuestion,
  type FormQuestions,
} from './form-questions.ts';
