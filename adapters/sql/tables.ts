/** Table names: fixed, with an optional prefix so several apps (or test files) share a database. */
export interface TableNames {
  users: string
  accounts: string
  sessions: string
  verificationTokens: string
  authenticators: string
  twoFactor: string
  recoveryCodes: string
  passwords: string
  cookieSessions: string
  sessionRevocations: string
  migrations: string
  migrationLock: string
}

export interface TableOptions {
  /** Put before every table name, e.g. `auth_` gives `auth_users`. Letters, digits and `_`. */
  tablePrefix?: string
}

export function tableNames(options: TableOptions = {}): TableNames {
  const prefix = options.tablePrefix ?? ""
  if (!/^[A-Za-z0-9_]{0,32}$/.test(prefix)) throw new TypeError(`tablePrefix must be up to 32 letters, digits or '_' (got ${JSON.stringify(prefix)})`)
  return {
    users: `${prefix}users`,
    accounts: `${prefix}accounts`,
    sessions: `${prefix}sessions`,
    verificationTokens: `${prefix}verification_tokens`,
    authenticators: `${prefix}authenticators`,
    twoFactor: `${prefix}two_factor`,
    recoveryCodes: `${prefix}recovery_codes`,
    passwords: `${prefix}passwords`,
    cookieSessions: `${prefix}cookie_sessions`,
    sessionRevocations: `${prefix}session_revocations`,
    migrations: `${prefix}gatehouse_migration`,
    migrationLock: `${prefix}gatehouse_migration_lock`,
  }
}
