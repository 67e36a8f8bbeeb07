/** How often a plugin's worker reports the memory its thread holds. */
export const MEMORY_REPORT_INTERVAL_MS = 200;

const MIB = 1024 * 1024;

/**
 * Why a worker that reported `heapUsed` and `external` bytes (Buffers and ArrayBuffers are external: the heap limit
 * of worker threads leaves them out) is past `limitMb`, or undefined while it is within it.
 */
export function memoryExceeded(report: { heapUsed: number; external: number }, limitMb: number): string | undefined {
  const used = report.heapUsed + report.external;
  if (used <= limitMb * MIB) return undefined;
  const mib = (bytes: number) => Math.round(bytes / MIB);
  return (
    `the plugin went past its memory limit of ${limitMb} MiB (heap ${mib(report.heapUsed)} MiB and ` +
    `Buffers ${mib(report.external)} MiB); its worker was stopped`
  );
}
