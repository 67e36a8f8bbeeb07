import { openBenchSession, type BenchSession } from '../support/session';
import { startApiserver, startBaseline, type ServerUnderTest } from './servers';

/** The shared session with the two servers under test on its Redis. */
export interface ApiBenchSession extends BenchSession {
  apiserver: ServerUnderTest;
  baseline: ServerUnderTest;
}

/**
 * Opens the benchmark session, then starts the apiserver and the baseline
 * server as processes of their own on the same data; with `profileDir`, both
 * write CPU profiles there.
 */
export async function openApiBenchSession(profileDir?: string): Promise<ApiBenchSession> {
  const session = await openBenchSession('apiserver');
  try {
    const apiserver = await startApiserver(session, profileDir);
    const baseline = await startBaseline(session, profileDir);
    return { ...session, apiserver, baseline };
  } catch (err) {
    await session.close({ keepLogs: true });
    throw err;
  }
}
