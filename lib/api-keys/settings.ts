/**
 * The types of the `apiKeys` option (issue #31), as given and as resolved (options.ts resolves it).
 * A file of its own, with no code, so the modules the resolved option points to can name it
 * without an import cycle.
 */
export interface ApiKeysOptions {
  /**
   * The keys' readable prefix (default `"gk_"`): lower-case letters, digits and `_`, ending in `_`,
   * 3 to 16 characters (e.g. `"acme_live_"`). Secret scanners recognise keys by it and by the checksum.
   */
  prefix?: string
  /** The scopes a user's key may be given (the app's own names, e.g. `["read", "write"]`). An organization's keys take its permissions. */
  scopes?: readonly string[]
  /** Also read the key from this request header (e.g. `"x-api-key"`), besides `Authorization: Bearer`. */
  header?: string
  /** The longest a key may live, in seconds (default: no limit). A key asked for without an expiry then gets the longest; a longer one is refused. */
  maxAge?: number
  /** Requests per key: `{ limit, window }` (default 600 per 60 seconds), or false. Answered with `RateLimit-*` headers. */
  rateLimit?: false | { limit: number; window: number }
  /** Users may make keys of their own (default true). */
  userKeys?: boolean
}

export interface ResolvedApiKeys {
  readonly prefix: string
  readonly scopes: ReadonlySet<string>
  /** Lower-cased. */
  readonly header?: string
  readonly maxAge?: number
  readonly rateLimit: { readonly limit: number; readonly window: number } | null
  readonly userKeys: boolean
  /** A key's expected length (prefix, 40 random characters, 6 of checksum). */
  readonly length: number
}
