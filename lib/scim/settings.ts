/** The types of the `scim` option (issue #29), as given and as resolved (options.ts). */
export interface ScimOptions {
  /** Most resources one list answer holds (`count` is capped to it; default 100, at most 1000). */
  maxResults?: number
  /** Requests per token per minute (default 600); over it: 429 with Retry-After. */
  rateLimit?: number
}

export interface ResolvedScim {
  readonly maxResults: number
  readonly rateLimit: number
}
