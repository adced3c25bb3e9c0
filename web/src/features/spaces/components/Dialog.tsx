// Mantine's modal as axe-core accepts it: a named close button, and rendered at the end
// of the page's main landmark (not the body), where its <header> is no second banner.
// Mounted only while open: the portal finds its target when mounted, and a dialog
// mounted during a screen's loading would find the loading screen's main, soon gone.
import { Modal, type ModalProps } from '@mantine/core';

export function Dialog(props: ModalProps) {
  if (!props.opened) return null;
  return <Modal portalProps={{ target: 'main' }} closeButtonProps={{ 'aria-label': 'Close' }} {...props} />;
}
