// What `quire serve` says once it listens: the database and the data folder it uses
// (a PostgreSQL URL without its credentials), where the API reference is, and each
// QUIRE_* variable it does not know, so that a misspelled setting is seen at once.
import { unknownVariableWarnings, type Config } from './config.ts';
import { sqliteFile } from './db/dialect.ts';

/** Connection parameters a PostgreSQL URL may carry that are secrets. */
const SECRET_PARAMETERS = ['password', 'sslpassword'];

/** A PostgreSQL URL as it may be shown: no user, no password, no secret parameter. */
export function withoutCredentials(databaseUrl: string): string {
  // The user information goes by its text: URL's setters ignore it on a URL without a host (postgres://u:p@/db?host=/run/postgresql).
  const url = new URL(databaseUrl.replace(/^([a-z]+:\/\/)[^/?#]*@/i, '$1'));
  for (const name of [...url.searchParams.keys()]) {
    if (SECRET_PARAMETERS.includes(name.toLowerCase())) url.searchParams.delete(name);
  }
  return url.toString();
}

export interface StartReport {
  /** One line for a person. */
  message: string;
  /** The same, as fields of the structured log line. */
  fields: { database: string; dataFolder: string; apiReference: string };
  /** One line per QUIRE_* variable that is not a setting. */
  warnings: string[];
}

export function startReport(config: Config, environment: NodeJS.ProcessEnv = process.env): StartReport {
  const database = config.databaseUrl ? `PostgreSQL ${withoutCredentials(config.databaseUrl)}` : `SQLite ${sqliteFile(config.dataDir)}`;
  const apiReference = `${config.publicUrl}/docs`;
  return {
    message: `Quire is serving ${config.publicUrl}; database: ${database}; data folder: ${config.dataDir}; API reference: ${apiReference}`,
    fields: { database, dataFolder: config.dataDir, apiReference },
    warnings: unknownVariableWarnings(environment),
  };
}

/** Writes the start report to the server's log. */
export function logStart(log: { info(fields: object, message: string): void; warn(message: string): void }, config: Config): void {
  const report = startReport(config);
  log.info(report.fields, report.message);
  for (const warning of report.warnings) log.warn(warning);
}
