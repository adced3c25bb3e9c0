import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import * as settings from '../api/settings.ts';

const key = (organizationId: string, part: string) => ['organizations', organizationId, 'settings', part] as const;

function useList<T>(organizationId: string, part: string, load: () => Promise<{ items: T[] }>) {
  return useQuery({ queryKey: key(organizationId, part), queryFn: load, select: (list) => list.items });
}

export const useCustomFields = (organizationId: string) => useList(organizationId, 'custom-fields', () => settings.listCustomFields(organizationId));
/** The specs, asked again every 2 seconds while Quire processes any of them. */
export const useSpecs = (organizationId: string) =>
  useQuery({
    queryKey: key(organizationId, 'openapi'),
    queryFn: () => settings.listSpecs(organizationId),
    select: (list) => list.items,
    refetchInterval: (query) => (query.state.data?.items.some((spec) => spec.processingState !== 'complete') ? 2000 : false),
  });
export const useSamlProviders = (organizationId: string) => useList(organizationId, 'saml', () => settings.listSamlProviders(organizationId));
export const useOidcProviders = (organizationId: string) => useList(organizationId, 'oidc', () => settings.listOidcProviders(organizationId));

/** A spec, asked again every 2 seconds while Quire is still processing it. */
export const useSpec = (organizationId: string, slug: string) =>
  useQuery({
    queryKey: [...key(organizationId, 'openapi'), slug],
    queryFn: () => settings.getSpec(organizationId, slug),
    refetchInterval: (query) => (query.state.data && query.state.data.processingState !== 'complete' ? 2000 : false),
  });

/** A change to a part of the settings; that part's list is asked again. */
export function useSettingsMutation<Variables, Answer>(organizationId: string, part: string, mutationFn: (variables: Variables) => Promise<Answer>) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => client.invalidateQueries({ queryKey: key(organizationId, part) }) });
}
