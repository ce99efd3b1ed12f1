/**
 * RedisStore's key names (after the store's prefix). Two layouts:
 *
 *   key                 plain (one server, Sentinel)   hash-tagged (cluster)
 *   a user's sessions   sessions:<userId>              sessions:{<userId>}
 *   "not before"        notbefore:<userId>             notbefore:{<userId>}
 *   "spared from"       spared:<sid>                   spared:{<userId>}:<sid>
 *   a revoked sid       revoked:<sid>                  revoked:<sid>
 *   the channel         revocations                    revocations (SPUBLISH: one slot)
 *   rate limits, claims, values: <key> in both (one key per command)
 *
 * A cluster runs a script or a multi-key command only when all its keys hash to one slot: with the
 * tags, a user's "not before" and the sid it spares (written by one script) share the user's slot.
 * The plain layout stays the default for one server so that an upgrade keeps every live revocation.
 */
export interface RedisKeys {
  readonly tagged: boolean
  sessions(userId: string): string
  notBefore(userId: string): string
  /** Where "spared from" is kept: by sid alone (plain), or in the user's slot (tagged; needs `userId`). */
  spared(sid: string, userId: string | undefined): string
  revoked(sid: string): string
  readonly channel: string
  plain(key: string): string
}

export function redisKeys(prefix: string, tagged: boolean): RedisKeys {
  const user = tagged ? (userId: string) => `{${userId}}` : (userId: string) => userId
  return {
    tagged,
    sessions: (userId) => `${prefix}sessions:${user(userId)}`,
    notBefore: (userId) => `${prefix}notbefore:${user(userId)}`,
    spared: (sid, userId) => (tagged ? `${prefix}spared:{${userId ?? ""}}:${sid}` : `${prefix}spared:${sid}`),
    revoked: (sid) => `${prefix}revoked:${sid}`,
    channel: `${prefix}revocations`,
    plain: (key) => prefix + key,
  }
}
