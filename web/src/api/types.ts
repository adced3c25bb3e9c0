// The API objects the app reads, as the server presents them (GitBook's shapes).

export interface User {
  object: 'user';
  id: string;
  displayName: string;
  email?: string;
  photoURL?: string;
}

export interface Organization {
  object: 'organization';
  id: string;
  title: string;
  urls: { app: string; location?: string; logo?: string };
  /** What the signed-in person may do in it (createContent: spaces and collections). */
  permissions?: { admin?: boolean; createContent?: boolean };
}

/** A list answer: GitBook's `{ items, next }`. */
export interface List<T> {
  items: T[];
  next?: { page: string };
}
