// The sandbox integration scripts run in (the port is port.ts): `workerd.ts` is the
// real one; without the runtime's binary the sandbox is unavailable and says why.
// Nothing here falls back to node:vm, which is no security boundary.
import { createRequire } from 'node:module';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import { Egress, type EgressRules } from './egress.ts';
import { SandboxRefused, type IntegrationSandbox, type ScriptAnswer } from './port.ts';
import { WorkerdSandbox } from './workerd.ts';

export { SandboxRefused, SandboxStopping, type IntegrationSandbox, type SandboxLimits, type ScriptAnswer } from './port.ts';

class UnavailableSandbox implements IntegrationSandbox {
  constructor(readonly unavailable: string) {}
  run(): Promise<ScriptAnswer> {
    return Promise.reject(new SandboxRefused(`integration scripts do not run: ${this.unavailable}`));
  }
  async close(): Promise<void> {}
}

/** The runtime's binary from the optional `workerd` package, or why there is none. */
export function findWorkerd(): { binary: string; compatibilityDate: string } | { missing: string } {
  try {
    const workerd = createRequire(import.meta.url)('workerd') as { default: string; compatibilityDate: string };
    return { binary: workerd.default, compatibilityDate: workerd.compatibilityDate };
  } catch (error) {
    return { missing: `the optional package "workerd" is not installed or has no binary for this platform (${(error as Error).message.split('\n')[0]})` };
  }
}

/** A sandbox that runs nothing, for tools that deliver no integration events. */
export function noSandbox(reason: string): IntegrationSandbox {
  return new UnavailableSandbox(reason);
}

/** The sandbox the configuration asks for; it starts nothing until the first event. */
export function createSandbox(config: Pick<Config, 'integrations' | 'integrationLimits' | 'integrationHosts' | 'publicUrl' | 'allowPrivateUrls'>, log: FastifyBaseLogger): IntegrationSandbox {
  if (!config.integrations) return new UnavailableSandbox('QUIRE_INTEGRATIONS=false');
  const found = findWorkerd();
  if ('missing' in found) return new UnavailableSandbox(found.missing);
  const rules: EgressRules = { ownOrigin: new URL(config.publicUrl).origin, allowedHosts: config.integrationHosts, allowPrivateUrls: config.allowPrivateUrls };
  return new WorkerdSandbox({ ...found, limits: config.integrationLimits, egress: new Egress(rules, log), log });
}
