import { readFileSync } from 'node:fs';

/** Clock ticks per second in /proc/<pid>/stat (USER_HZ, 100 on every Linux build in use). */
const TICKS_PER_SECOND = 100;

/**
 * The CPU time (user + system, milliseconds) process `pid` has used so far,
 * from /proc; `undefined` where /proc is not available or the process is
 * gone. Resolution is 10 ms, so measure phases, not requests.
 *
 * @example const before = cpuMillis(pid); …; const used = cpuMillis(pid)! - before!;
 */
export function cpuMillis(pid: number): number | undefined {
  return statCpuMillis(`/proc/${pid}/stat`);
}

/** Like `cpuMillis`, for one thread of process `pid` (its main thread when `tid` is `pid`). */
export function threadCpuMillis(pid: number, tid: number): number | undefined {
  return statCpuMillis(`/proc/${pid}/task/${tid}/stat`);
}

function statCpuMillis(path: string): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces; the fields after its ")" are plain.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1000) / TICKS_PER_SECOND;
}

/** CPU time used by several processes over one phase, in milliseconds, by label. */
export type CpuUsage = Record<string, number | undefined>;

/**
 * Measures the CPU time the labelled processes use while `work` runs.
 *
 * @example const { result, cpu } = await measureCpu({ apiserver: pid, redis: redisPid }, () => runLoad(…));
 */
export async function measureCpu<T>(
  pids: Record<string, number | undefined>,
  work: () => Promise<T>,
): Promise<{ result: T; cpu: CpuUsage }> {
  const read = () =>
    Object.fromEntries(
      Object.entries(pids).map(([label, pid]) => [label, pid === undefined ? undefined : cpuMillis(pid)]),
    );
  const before = read();
  const result = await work();
  const after = read();
  const cpu: CpuUsage = {};
  for (const label of Object.keys(pids)) {
    const a = after[label];
    const b = before[label];
    cpu[label] = a === undefined || b === undefined ? undefined : a - b;
  }
  return { result, cpu };
}
