// The header's menu of the signed-in person: their account, and signing out.
import { Avatar, Menu, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { Link } from 'react-router';
import { signOut } from '../api/auth.ts';
import { useSession } from '../queries/authState.ts';

export function UserMenu() {
  const { user } = useSession();
  const signingOut = useMutation({
    mutationFn: signOut,
    // A fresh page, so nothing read as the person stays in memory; signed out here even
    // if the server could not be told (the cookie may be gone already).
    onSettled: () => window.location.replace('/sign-in'),
  });
  return (
    <Menu position="bottom-end" width={220} withinPortal={false} trapFocus={false} withInitialFocusPlaceholder={false}>
      <Menu.Target>
        {/* Named by hidden words rather than aria-label: the initials shown are not in the name, which axe-core flags for voice control. */}
        <UnstyledButton>
          <Avatar src={user.photoURL} alt="" name={user.displayName} variant="filled" color="indigo.8" radius="xl" size={34} aria-hidden="true" />
          <VisuallyHidden>Account menu of {user.displayName}</VisuallyHidden>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{user.email ?? user.displayName}</Menu.Label>
        <Menu.Item component={Link} to="/account">
          Account
        </Menu.Item>
        <Menu.Item onClick={() => signingOut.mutate()} disabled={signingOut.isPending}>
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
