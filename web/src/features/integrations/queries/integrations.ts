import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { configure, getIntegration, install, listInstalled, listIntegrations, uninstall } from '../api/integrations.ts';

const keys = {
  all: ['integrations'] as const,
  one: (name: string) => ['integrations', name] as const,
  installed: (organizationId: string) => ['organizations', organizationId, 'installations'] as const,
};

export const useIntegrations = () => useQuery({ queryKey: keys.all, queryFn: listIntegrations, select: (list) => list.items });
export const useIntegration = (name: string) => useQuery({ queryKey: keys.one(name), queryFn: () => getIntegration(name) });
export const useInstalled = (organizationId: string) =>
  useQuery({ queryKey: keys.installed(organizationId), queryFn: () => listInstalled(organizationId), select: (list) => list.items });

function useInstallationMutation<Variables>(organizationId: string, mutationFn: (variables: Variables) => Promise<unknown>) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => client.invalidateQueries({ queryKey: keys.installed(organizationId) }) });
}

export const useInstall = (organizationId: string) => useInstallationMutation(organizationId, (name: string) => install(name, organizationId));
export const useConfigure = (organizationId: string) =>
  useInstallationMutation(organizationId, ({ name, installationId, configuration }: { name: string; installationId: string; configuration: Record<string, unknown> }) =>
    configure(name, installationId, configuration),
  );
export const useUninstall = (organizationId: string) =>
  useInstallationMutation(organizationId, ({ name, installationId }: { name: string; installationId: string }) => uninstall(name, installationId));
