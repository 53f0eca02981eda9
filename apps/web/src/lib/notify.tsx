import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconCheck, IconInfoCircle } from '@tabler/icons-react';
import { TOAST_MS } from '@flywheel/shared/constants';

/** Toasts: 5 s at top-right, below the header (position set on <Notifications />). */
export function notifySuccess(message: string, title = 'Success'): void {
  notifications.show({
    title,
    message,
    color: 'teal',
    icon: <IconCheck size={18} />,
    autoClose: TOAST_MS,
  });
}

/** `id` makes repeats of one failure a single toast while it is shown. */
export function notifyFailure(message: string, title = 'Failure', id?: string): void {
  notifications.show({
    id,
    title,
    message,
    color: 'red',
    icon: <IconAlertTriangle size={18} />,
    autoClose: TOAST_MS,
  });
}

export function notifyInfo(message: string, title = 'Attention'): void {
  notifications.show({
    title,
    message,
    color: 'blue',
    icon: <IconInfoCircle size={18} />,
    autoClose: TOAST_MS,
  });
}
