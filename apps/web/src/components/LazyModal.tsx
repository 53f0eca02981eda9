import { useEffect, useState } from 'react';
import { Modal, type ModalProps } from '@mantine/core';

/**
 * A Mantine Modal that joins the page the first time it opens and stays from then on. A closed Modal still
 * renders its root, portal and transition: a page with a dozen of them (a date range behind each time filter)
 * paid for all of them on its first render. Opened for the first time, it is put in closed and then opened, so
 * it fades in as a Modal always does.
 */
export function LazyModal(props: ModalProps) {
  // 0: never opened, not in the page; 1: in the page, closed, about to open; 2: in the page.
  const [stage, setStage] = useState<0 | 1 | 2>(props.opened ? 2 : 0);
  useEffect(() => {
    if (props.opened && stage < 2) setStage((s) => (s === 0 ? 1 : 2));
  }, [props.opened, stage]);
  if (stage === 0) return null;
  return <Modal {...props} opened={props.opened && stage === 2} />;
}
