// GET /v1/orgs/{organizationId} with a real token, against a bare node:http server
// answering a fixed JSON object on the same machine in the same run. Target on
// SQLite: Quire reaches at least 35% of the bare server's requests per second.
import { load, runCli, startBareServer, startServerProcess, stop, type BenchDatabase } from './support.ts';

export interface OrgReadResult {
  engine: string;
  bare: number;
  quire: number;
  ratio: number;
  p99: number;
  errors: number;
}

export async function benchOrganizationRead(database: BenchDatabase, seconds: number): Promise<OrgReadResult> {
  const boot = await runCli(
    ['admin', 'bootstrap', '--org', 'Bench', '--email', 'bench@quire.test', '--name', 'Bench', '--json'],
    database.env,
  );
  const { token, organization } = JSON.parse(boot.stdout);
  // The limiter runs on every request, as in production, but never refuses the load generator.
  const server = await startServerProcess({ ...database.env, LOG_LEVEL: 'warn', QUIRE_RATE_LIMIT: '1000000000' });
  const url = `${server.baseUrl}/v1/orgs/${organization.id}`;
  const headers = { authorization: `Bearer ${token}` };
  const sample = await (await fetch(url, { headers })).text();
  const bare = await startBareServer(sample);
  try {
    await load(bare.url, {}, 2);
    const bareResult = await load(bare.url, {}, seconds);
    await load(url, headers, 2);
    const quireResult = await load(url, headers, seconds);
    return {
      engine: database.engine,
      bare: bareResult.requestsPerSecond,
      quire: quireResult.requestsPerSecond,
      ratio: quireResult.requestsPerSecond / bareResult.requestsPerSecond,
      p99: quireResult.p99,
      errors: quireResult.errors + quireResult.non2xx,
    };
  } finally {
    await stop(bare.child);
    await stop(server.child);
  }
}
