import { Button, Group } from '@mantine/core';

/** Cancel and Submit, Submit disabled until the dialog is valid. */
export function DialogFooter(props: { valid: boolean; onCancel(): void; onSubmit(): void }) {
  return (
    <Group justify="flex-end" mt="xl" gap="sm">
      <Button variant="default" onClick={props.onCancel}>
        Cancel
      </Button>
      <Button disabled={!props.valid} onClick={props.onSubmit}>
        Submit
      </Button>
    </Group>
  );
}
