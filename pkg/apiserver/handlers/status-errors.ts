import { StatusError } from '../../api/errors';

/** Whether an error is an API error with the given HTTP code. */
export const isStatusError = (err: unknown, code: number): err is StatusError =>
  err instanceof StatusError && err.code === code;
