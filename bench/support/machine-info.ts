import { cpus, loadavg, release, totalmem, type as osType } from 'node:os';
import type Redis from 'ioredis';

/** What a benchmark ran on, printed with its figures and recorded in bench/README.md. */
export interface MachineInfo {
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  redis: string;
  /** The 1-minute load average when the run started: the machine may be shared. */
  loadAverage: number;
}

/** The machine without Redis, for in-process benchmarks. */
export type HostInfo = Omit<MachineInfo, 'redis'>;

/** Collects the machine's description (no Redis). */
export function hostInfo(): HostInfo {
  const processors = cpus();
  return {
    cpu: processors[0]?.model.trim() ?? 'unknown',
    cores: processors.length,
    memoryGiB: totalmem() / 2 ** 30,
    os: `${osType()} ${release()}`,
    node: process.version,
    loadAverage: loadavg()[0],
  };
}

/** Collects the machine's description and asks Redis for its version. */
export async function machineInfo(redis: Redis): Promise<MachineInfo> {
  return { ...hostInfo(), redis: redisVersion(await redis.info('server')) };
}

/** The `redis_version` field of an `INFO server` reply, e.g. `7.0.15`. */
export function redisVersion(info: string): string {
  return /^redis_version:(.+)$/m.exec(info)?.[1]?.trim() ?? 'unknown';
}

/** The machine as lines of `label: value`. */
export function describeMachine(info: MachineInfo, redisOrigin: string): string[] {
  const lines = describeHost(info);
  lines.splice(4, 0, `Redis:  ${info.redis} (${redisOrigin})`);
  return lines;
}

/** The machine without Redis as lines of `label: value`. */
export function describeHost(info: HostInfo): string[] {
  return [
    `CPU:    ${info.cpu}, ${info.cores} cores`,
    `Memory: ${info.memoryGiB.toFixed(1)} GiB`,
    `OS:     ${info.os}`,
    `Node:   ${info.node}`,
    `Load:   ${info.loadAverage.toFixed(2)} (1-minute average at start)`,
  ];
}
