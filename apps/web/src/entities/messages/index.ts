export { composeProblems, firstIssue, isBlankMessage } from './compose-checks.ts';
export { followReceipt } from './follow-receipt.tsx';
export { budgetLine, sendBudgetKey, useSendBudget } from './send-budget.ts';
export { DM_CHOOSE_SENDER, isChosen, NO_SENDER, type ChosenSender, type SenderChoice } from './sender.ts';
export { useTestSend } from './use-test-send.ts';
export { useUploadFlow } from './use-upload-flow.ts';
