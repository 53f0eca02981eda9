import { useEffect, useState, type ReactNode } from 'react';
import { Button, Group, Stack, Text } from '@mantine/core';
import { LazyModal } from './LazyModal.tsx';

export type WizardStep = {
  /** The modal's title while this step shows (e.g. 'Compose Message'). */
  title: string;
  content: ReactNode;
  /** Why the step cannot go on yet, or null/undefined when it is valid. */
  error?: string | null;
  /**
   * 'disable' (default): Next (or the final button) is disabled until the step is valid.
   * 'message': the button stays enabled and a click on an invalid step shows `error` instead of going on.
   */
  validation?: 'disable' | 'message';
};

export type WizardProps = {
  opened: boolean;
  /** Closes the whole flow (closing the first step, or after a submit the caller decides). */
  onClose(): void;
  steps: readonly WizardStep[];
  /** The last step's button ('create Trigger', 'Create'). */
  submitLabel: string;
  /**
   * While its promise runs the button shows a loader and nothing can be closed or clicked. A rejection keeps
   * the step open: the caller shows the failure.
   */
  onSubmit(): Promise<unknown> | void;
  /** Submitting outside onSubmit's promise (e.g. a mutation's isPending). */
  pending?: boolean;
  nextLabel?: string;
  backLabel?: string;
  size?: string | number;
};

/**
 * A multi-step modal flow with the Actions area's closing rules: closing a later step returns
 * to the step before it; closing the first step closes the flow. Each step validates before Next.
 */
export function Wizard(p: WizardProps) {
  const [index, setIndex] = useState(0);
  const [shownError, setShownError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const pending = submitting || Boolean(p.pending);
  const last = p.steps.length - 1;
  const step = p.steps[Math.min(index, last)]!;
  const valid = !step.error;
  const byMessage = step.validation === 'message';

  // Every opening starts at the first step.
  useEffect(() => {
    if (p.opened) {
      setIndex(0);
      setShownError(null);
    }
  }, [p.opened]);

  const go = (next: number) => {
    setShownError(null);
    setIndex(next);
  };
  const close = () => {
    if (pending) return;
    if (index > 0) go(index - 1);
    else p.onClose();
  };
  const advance = async () => {
    if (!valid) {
      setShownError(step.error ?? null);
      return;
    }
    if (index < last) return go(index + 1);
    setSubmitting(true);
    try {
      await p.onSubmit();
    } catch {
      // The step stays open; the caller shows its failure (a toast, a message in the step).
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <LazyModal
      opened={p.opened}
      onClose={close}
      title={step.title}
      size={p.size ?? 'lg'}
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': index > 0 ? `Close ${step.title}` : 'Close' }}
    >
      <Stack gap="md">
        {p.steps.length > 1 ? (
          <Text fz="xs" c="dimmed">{`Step ${index + 1} of ${p.steps.length}`}</Text>
        ) : null}
        {step.content}
        {shownError && step.error ? (
          <Text c="red" fz="sm" role="alert">
            {step.error}
          </Text>
        ) : null}
        <Group justify="space-between">
          {index > 0 ? (
            <Button variant="default" onClick={() => go(index - 1)} disabled={pending}>
              {p.backLabel ?? 'Back'}
            </Button>
          ) : (
            <span />
          )}
          <Button onClick={advance} disabled={!valid && !byMessage} loading={index === last && pending}>
            {index < last ? (p.nextLabel ?? 'Next') : p.submitLabel}
          </Button>
        </Group>
      </Stack>
    </LazyModal>
  );
}
