// A button for what cannot be undone: the first press asks, the second does it.
import { Button, Group, type ButtonProps } from '@mantine/core';
import { useState } from 'react';

interface Props extends ButtonProps {
  /** Says what the button does to whom, for screen readers ("Remove Grace Writer"). */
  label: string;
  confirmLabel: string;
  onConfirm: () => void;
}

export function ConfirmButton({ label, confirmLabel, onConfirm, children, ...props }: Props) {
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <Button variant="default" size="xs" aria-label={label} onClick={() => setAsking(true)} {...props}>
        {children}
      </Button>
    );
  return (
    <Group gap={4} wrap="nowrap">
      <Button color="red.8" size="xs" autoFocus onClick={() => { setAsking(false); onConfirm(); }} {...props}>
        {confirmLabel}
      </Button>
      <Button variant="default" size="xs" onClick={() => setAsking(false)}>
        Cancel
      </Button>
    </Group>
  );
}
