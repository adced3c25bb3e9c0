// How Quire logs: JSON lines for machines (files, journald, collectors), readable
// colored lines when a person watches the terminal.
import type { LoggerOptions } from 'pino';
import type { LogLevel } from '../config.ts';

export function loggerOptions(level: LogLevel, toTerminal = process.stdout.isTTY === true): LoggerOptions {
  return toTerminal
    ? { level, transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } } }
    : { level };
}
