/*
 * A message the app sends: who sends it (the bot or an admin), the checks before a send, the daily send
 * budget, images uploaded first, 'Send a test to me', and the toast that follows a send's receipt.
 * Public surface of entities/messages: import it from here, never its files (eslint.config.js).
 */
export { composeProblems, firstIssue, isBlankMessage } from './compose-checks.ts';
export { followReceipt } from './follow-receipt.tsx';
export { budgetLine, sendBudgetKey, useSendBudget } from './send-budget.ts';
export { DM_CHOOSE_SENDER, isChosen, NO_SENDER, type ChosenSender, type SenderChoice } from './sender.ts';
export { useTestSend } from './use-test-send.ts';
export { useUploadFlow } from './use-upload-flow.ts';
