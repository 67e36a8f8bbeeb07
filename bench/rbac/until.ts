/** How long `until` waits by default. */
const DEADLINE_MS = 30_000;

/**
 * Resolves once `condition` holds, checking every `intervalMs`; rejects
 * naming `what` after `deadlineMs`.
 *
 * @example await until(async () => (await api.call(get)).status === 200, 'the persons API');
 */
export async function until(
  condition: () => Promise<boolean>,
  what: string,
  deadlineMs = DEADLINE_MS,
  intervalMs = 20,
): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${deadlineMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
