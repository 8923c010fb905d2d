// What a heavy-work thread does with a task: calls the named function of the module its owner
// named. Inputs and outputs cross a thread boundary, so they are plain data (an upload goes by the
// path of its spooled file); a refusal meant for the user comes back as a value, since an error's
// class and status do not survive the crossing.
import { ApiError } from '../http/envelope';

export interface Task {
  /** The URL of the module that exports the function; the thread loads it once, on first use. */
  module: string;
  name: string;
  input: unknown;
}

export type Settled<T> = { ok: T } | { refused: { code: number; msg: string } };

export async function runTask({ module, name, input }: Task): Promise<Settled<unknown>> {
  const run = (await import(module))[name] as (input: unknown) => unknown;
  try {
    return { ok: await run(input) };
  } catch (error) {
    if (error instanceof ApiError) return { refused: { code: error.code, msg: error.message } };
    throw error;
  }
}
