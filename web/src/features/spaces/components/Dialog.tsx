// Mantine's modal as axe-core accepts it: a named close button, and rendered at the end
// of the page's main landmark (not the body), where its <header> is no second banner.
import { Modal, type ModalProps } from '@mantine/core';

export function Dialog(props: ModalProps) {
  return <Modal portalProps={{ target: 'main' }} closeButtonProps={{ 'aria-label': 'Close' }} {...props} />;
}
