import type { Registry } from 'prom-client';
import type { Storage } from '../../storage/interface';
import type { Logger } from '../../util/log';
import type { RouteTable } from '../routes';
import { registerAuditEventsRoute } from './events-route';
import { auditFileSink, DEFAULT_AUDIT_LOG_MAX_BYTES, DEFAULT_AUDIT_LOG_MAX_FILES } from './file-sink';
import { AuditRecorder, type AuditSink } from './recorder';
import type { AuditLevel } from './record';
import { auditStoreSink, defineAuditType, DEFAULT_AUDIT_RETENTION_MS } from './store-sink';

/** The apiserver's audit flags. */
export interface AuditConfig {
  /** `--audit-level` (default `Writes`). */
  auditLevel?: AuditLevel;
  /** `--audit-log-path`: also write JSON lines there. */
  auditLogPath?: string;
  /** `--audit-log-max-size` in bytes (default 100 MB). */
  auditLogMaxBytes?: number;
  /** `--audit-log-max-files` (default 10). */
  auditLogMaxFiles?: number;
  /** `--audit-retention` in milliseconds (default 7 days). */
  auditRetentionMs?: number;
}

/** What the request pipeline records into. */
export interface Audit {
  level: AuditLevel;
  recorder: AuditRecorder;
}

/**
 * Declares the records' type, serves `…/audit.svc.run/v1alpha1/events`, and, unless the level is `None`,
 * starts the recorder with the store sink (and the file sink with `--audit-log-path`). Its drop counter
 * goes to `registry` (the apiserver's `/metrics`).
 */
export async function setupAudit(
  config: AuditConfig,
  storage: Storage,
  routes: RouteTable,
  registry: Registry,
  log: Logger,
): Promise<Audit | undefined> {
  await defineAuditType(storage);
  registerAuditEventsRoute(routes, storage);
  const level = config.auditLevel ?? 'Writes';
  if (level === 'None') return undefined;
  const sinks: AuditSink[] = [auditStoreSink(storage, config.auditRetentionMs ?? DEFAULT_AUDIT_RETENTION_MS, log)];
  if (config.auditLogPath) {
    sinks.push(
      auditFileSink({
        path: config.auditLogPath,
        maxBytes: config.auditLogMaxBytes ?? DEFAULT_AUDIT_LOG_MAX_BYTES,
        maxFiles: config.auditLogMaxFiles ?? DEFAULT_AUDIT_LOG_MAX_FILES,
      }),
    );
  }
  return { level, recorder: new AuditRecorder(sinks, registry, log) };
}
