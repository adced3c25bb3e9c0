// User objects.
import type { UserRow } from '../db/schema.ts';

export interface UserFields {
  id: string;
  email: string;
  display_name: string;
  photo_url: string | null;
}

export function presentUser(publicUrl: string, user: UserFields | UserRow) {
  return {
    object: 'user' as const,
    id: user.id,
    displayName: user.display_name,
    email: user.email,
    ...(user.photo_url ? { photoURL: user.photo_url } : {}),
    urls: { location: `${publicUrl}/v1/users/${user.id}` },
  };
}
