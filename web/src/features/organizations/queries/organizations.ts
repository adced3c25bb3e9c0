import { useQuery } from '@tanstack/react-query';
import { getOrganization, listOrganizations } from '../api/organizations.ts';

export const organizationKeys = {
  all: ['organizations'] as const,
  one: (organizationId: string) => ['organizations', organizationId] as const,
};

export function useOrganizations() {
  return useQuery({ queryKey: organizationKeys.all, queryFn: listOrganizations, select: (list) => list.items });
}

export function useOrganization(organizationId: string) {
  return useQuery({ queryKey: organizationKeys.one(organizationId), queryFn: () => getOrganization(organizationId) });
}

const LAST_ORGANIZATION = 'quire.organization';

/** The organization last opened in this browser, for `/` and the switcher on screens outside one. */
export const lastOrganization = {
  get: (): string | null => localStorage.getItem(LAST_ORGANIZATION),
  set: (organizationId: string) => localStorage.setItem(LAST_ORGANIZATION, organizationId),
};
