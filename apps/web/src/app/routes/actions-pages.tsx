import { lazy, Suspense } from 'react';
import { ActionsPage } from '../../features/actions/ActionsPage.tsx';
import type { SendDmSlotProps } from '../../features/actions/slots.ts';

/*
 * The Actions page with the sending feature's buttons (a feature never imports another: app/ composes). The
 * sending code is its own chunk, loaded when a button first shows.
 */
const SendMessageButton = lazy(() =>
  import('./delivery-slots.ts').then((m) => ({ default: m.SendMessageButton })),
);

function SendDm({ memberIds, summary, disabled, onSent }: SendDmSlotProps) {
  return (
    <Suspense fallback={null}>
      <SendMessageButton
        label="Send DM"
        audience={{ dms: { members: memberIds } }}
        summary={summary}
        disabled={disabled}
        onSent={onSent}
      />
    </Suspense>
  );
}

export function ActionsWithSending() {
  return <ActionsPage SendDm={SendDm} />;
}
