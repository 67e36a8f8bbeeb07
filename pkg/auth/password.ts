import argon2 from 'argon2';

/**
 * Password hashing: argon2id (docs/security.md) through the `argon2` package, whose
 * npm tarball ships prebuilt binaries (ADR 0006). The cost is OWASP's
 * recommended minimum for argon2id (19 MiB, 2 passes, 1 lane): about 20 ms on
 * this class of machine, paid once per login, never per token request.
 */
export interface PasswordHashOptions {
  memoryCostKiB: number;
  timeCost: number;
}

export const DEFAULT_PASSWORD_HASH: PasswordHashOptions = { memoryCostKiB: 19 * 1024, timeCost: 2 };

/** The shortest password accepted. */
export const MIN_PASSWORD_LENGTH = 8;
/** The longest (argon2 takes more, but nobody types it and it bounds the work a request can ask for). */
export const MAX_PASSWORD_LENGTH = 1024;

/** Hashes a password into a PHC string, e.g. `$argon2id$v=19$m=19456,t=2,p=1$…`. */
export function hashPassword(password: string, options: PasswordHashOptions = DEFAULT_PASSWORD_HASH): Promise<string> {
  return argon2.hash(password, {
    type: argon2.argon2id,
    memoryCost: options.memoryCostKiB,
    timeCost: options.timeCost,
    parallelism: 1,
  });
}

/** Whether `password` matches the PHC string `hash` (compared in constant time by argon2). False for a malformed hash. */
export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/** What is wrong with a new password, or undefined when it is acceptable. */
export function passwordProblem(password: unknown): string | undefined {
  if (typeof password !== 'string') return 'must be a string';
  if (password.length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `must be at most ${MAX_PASSWORD_LENGTH} characters`;
  return undefined;
}
