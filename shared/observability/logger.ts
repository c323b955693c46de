import { clock } from '../clock';
/**
 * Structured logs: one JSON line per event on stdout, in the shape Powertools Logger
 * writes (`level`, `message`, `timestamp`, `service`, then the event's own fields), so
 * CloudWatch Logs Insights queries and the local `service.log` read the same.
 *
 * Why not Powertools Logger itself: it is the largest piece of our own code path at
 * init, and every function loads a logger, so its import cost is paid by all of them
 * (docs/PERFORMANCE.md, "Logs and metrics in a few lines", has the measurement).
 *
 * Level: POWERTOOLS_LOG_LEVEL, else AWS_LAMBDA_LOG_LEVEL, else INFO; SILENT writes nothing
 * (shared/config.ts `config.logLevel`).
 */
import { config, type LogLevel } from '../config';

const LEVELS: Record<LogLevel, number> = { DEBUG: 8, INFO: 12, WARN: 16, ERROR: 20, SILENT: 28 };
type Level = Exclude<LogLevel, 'SILENT'>;
export type LogFields = Record<string, unknown>;

/** Errors become plain fields (JSON.stringify would write `{}` for them), their causes too. */
function serializable(_key: string, value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack, ...(value.cause !== undefined && { cause: value.cause }) };
  return value;
}

class JsonLogger {
  readonly #service = config.serviceName();

  /** Read per line, not at import: a level set later still applies. */
  #enabled(level: Level): boolean {
    return LEVELS[level] >= LEVELS[config.logLevel()];
  }

  #write(level: Level, message: string, fields?: LogFields): void {
    if (!this.#enabled(level)) return;
    const traceId = config.xrayTraceId();
    const line = {
      level,
      message,
      timestamp: new Date(clock.realNow()).toISOString(),
      service: this.#service,
      ...(traceId && { xray_trace_id: traceId }),
      ...fields,
    };
    process.stdout.write(`${JSON.stringify(line, serializable)}\n`);
  }

  debug(message: string, fields?: LogFields): void {
    this.#write('DEBUG', message, fields);
  }

  info(message: string, fields?: LogFields): void {
    this.#write('INFO', message, fields);
  }

  warn(message: string, fields?: LogFields): void {
    this.#write('WARN', message, fields);
  }

  error(message: string, fields?: LogFields): void {
    this.#write('ERROR', message, fields);
  }
}

/** The service's logger; one per container. */
export const logger = new JsonLogger();
