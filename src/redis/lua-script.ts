import { createHash } from 'node:crypto';

/** A Lua script with its SHA1, as `EVALSHA` needs it. */
export interface LuaScript {
  /** Name, for error messages and debugging. */
  readonly name: string;
  /** The Lua source, sent with `EVAL` when the server answers `NOSCRIPT`. */
  readonly source: string;
  /** Hex SHA1 of `source`, sent with `EVALSHA`. */
  readonly sha: string;
}

/** Wraps Lua source as a {@link LuaScript}, computing its SHA1 once. */
export function defineScript(name: string, source: string): LuaScript {
  return { name, source, sha: createHash('sha1').update(source).digest('hex') };
}
