import { isConflict } from './errors';

/**
 * Runs `attempt` again while it fails with a 409 Conflict, at most `times`
 * runs in all (client-go's `retry.RetryOnConflict`): for a read-check-write
 * whose conditional write lost to a concurrent writer. Each run must read
 * afresh. The last conflict, or any other error, is thrown.
 */
export async function retryOnConflict<T>(attempt: () => Promise<T>, times = 5): Promise<T> {
  for (let run = 1; ; run++) {
    try {
      return await attempt();
    } catch (err) {
      if (run >= times || !isConflict(err)) throw err;
    }
  }
}
