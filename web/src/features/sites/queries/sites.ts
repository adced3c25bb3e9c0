import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as sites from '../api/sites.ts';

export const siteKeys = {
  all: (organizationId: string) => ['organizations', organizationId, 'sites'] as const,
  one: (organizationId: string, siteId: string) => ['organizations', organizationId, 'sites', siteId] as const,
  part: (organizationId: string, siteId: string, part: string) => ['organizations', organizationId, 'sites', siteId, part] as const,
};

export const useSites = (organizationId: string) =>
  useQuery({ queryKey: siteKeys.all(organizationId), queryFn: () => sites.listSites(organizationId), select: (list) => list.items });
export const useSite = (organizationId: string, siteId: string) =>
  useQuery({ queryKey: siteKeys.one(organizationId, siteId), queryFn: () => sites.getSite(organizationId, siteId) });
export const useSpaces = (organizationId: string) =>
  useQuery({ queryKey: ['organizations', organizationId, 'spaces'], queryFn: () => sites.listSpaces(organizationId), select: (list) => list.items });

function usePart<T>(organizationId: string, siteId: string, part: string, load: () => Promise<{ items: T[] }>, enabled = true) {
  return useQuery({ queryKey: siteKeys.part(organizationId, siteId, part), queryFn: load, select: (list) => list.items, enabled });
}

export const useSiteSpaces = (organizationId: string, siteId: string) => usePart(organizationId, siteId, 'site-spaces', () => sites.listSiteSpaces(organizationId, siteId));
export const useSections = (organizationId: string, siteId: string) => usePart(organizationId, siteId, 'sections', () => sites.listSections(organizationId, siteId));
export const useSectionGroups = (organizationId: string, siteId: string) =>
  usePart(organizationId, siteId, 'section-groups', () => sites.listSectionGroups(organizationId, siteId));
export const useShareLinks = (organizationId: string, siteId: string, enabled: boolean) =>
  usePart(organizationId, siteId, 'share-links', () => sites.listShareLinks(organizationId, siteId), enabled);
export const usePublishingAuth = (organizationId: string, siteId: string, enabled: boolean) =>
  useQuery({ queryKey: siteKeys.part(organizationId, siteId, 'publishing-auth'), queryFn: () => sites.getPublishingAuth(organizationId, siteId), enabled });
export const useCustomization = (organizationId: string, siteId: string) =>
  useQuery({ queryKey: siteKeys.part(organizationId, siteId, 'customization'), queryFn: () => sites.getCustomization(organizationId, siteId) });

/** A change to a site: afterwards everything cached about the site, and the list of sites, is asked again. */
export function useSiteMutation<Variables, Answer>(organizationId: string, mutationFn: (variables: Variables) => Promise<Answer>) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => client.invalidateQueries({ queryKey: siteKeys.all(organizationId) }) });
}

/** Deleting a site: what was cached about it is dropped rather than asked again (it would answer 404), and the list of sites is asked again. */
export function useDeleteSite(organizationId: string, siteId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => sites.deleteSite(organizationId, siteId),
    onSuccess: () => {
      client.removeQueries({ queryKey: siteKeys.one(organizationId, siteId) });
      return client.invalidateQueries({ queryKey: siteKeys.all(organizationId), exact: true });
    },
  });
}
