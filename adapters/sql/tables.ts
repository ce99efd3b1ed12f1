/**
 * Table names: fixed, with an optional prefix so several apps (or test files) share a database;
 * and the names of the indexes and constraints the schema creates, built from them here so the
 * prefix's length limit is computed from every name the schema writes (issue #26).
 */
import { InvalidOption } from "../../lib/errors.js"

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
  organizations: string
  members: string
  invitations: string
  ssoConnections: string
  ssoDomains: string
  scimTokens: string
  scimUsers: string
  scimGroups: string
  userBans: string
  apiKeys: string
  oidcRecords: string
  migrations: string
  migrationLock: string
  /** The indexes and named constraints (schema.ts, cookie-sessions.ts, organizations.ts, sso.ts, scim.ts, api-keys-schema.ts, identity-provider-schema.ts). */
  index: IndexNames
}

export interface IndexNames {
  accountsProviderUnique: string
  accountsUserId: string
  sessionsUserId: string
  verificationTokensPk: string
  authenticatorsUserId: string
  recoveryCodesPk: string
  cookieSessionsPk: string
  cookieSessionsExpires: string
  revocationsCreatedAt: string
  revocationsSubject: string
  revocationsExpires: string
  organizationsSlugUnique: string
  membersPk: string
  membersUserId: string
  invitationsTokenHashUnique: string
  invitationsEmailUnique: string
  ssoConnectionsOrganizationId: string
  ssoDomainsPk: string
  ssoDomainsDomain: string
  ssoDomainsVerifiedUnique: string
  scimTokensOrgId: string
  scimTokensHashUnique: string
  scimUsersPk: string
  scimUsersUserId: string
  scimUsersNameKeyUnique: string
  scimUsersExternalIdUnique: string
  scimGroupsNameKeyUnique: string
  apiKeysHashUnique: string
  apiKeysUserId: string
  apiKeysOrgId: string
  oidcRecordsPk: string
  oidcRecordsGrantId: string
  oidcRecordsUid: string
  oidcRecordsUserCode: string
  oidcRecordsAccountId: string
  oidcRecordsClientId: string
  oidcRecordsExpiresAt: string
  oidcRecordsSeq: string
}

export interface TableOptions {
  /**
   * Put before every table name, e.g. `auth_` gives `auth_users`. Letters, digits and `_`, at most
   * `MAX_TABLE_PREFIX_LENGTH` characters, so every name the schema creates fits every engine.
   */
  tablePrefix?: string
}

/**
 * The longest identifier every supported engine accepts as it is: PostgreSQL's 63 (it cuts longer
 * names, so two indexes could end up with one name), MySQL and MariaDB refuse over 64.
 */
export const MAX_IDENTIFIER_LENGTH = 63

function names(prefix: string): TableNames {
  const table = {
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
    organizations: `${prefix}organizations`,
    members: `${prefix}members`,
    invitations: `${prefix}invitations`,
    ssoConnections: `${prefix}sso_connections`,
    ssoDomains: `${prefix}sso_domains`,
    scimTokens: `${prefix}scim_tokens`,
    scimUsers: `${prefix}scim_users`,
    scimGroups: `${prefix}scim_groups`,
    userBans: `${prefix}user_bans`,
    apiKeys: `${prefix}api_keys`,
    oidcRecords: `${prefix}oidc_records`,
    migrations: `${prefix}gatehouse_migration`,
    migrationLock: `${prefix}gatehouse_migration_lock`,
  }
  const index: IndexNames = {
    accountsProviderUnique: `${table.accounts}_provider_account_unique`,
    accountsUserId: `${table.accounts}_user_id_index`,
    sessionsUserId: `${table.sessions}_user_id_index`,
    verificationTokensPk: `${table.verificationTokens}_pk`,
    authenticatorsUserId: `${table.authenticators}_user_id_index`,
    recoveryCodesPk: `${table.recoveryCodes}_pk`,
    cookieSessionsPk: `${table.cookieSessions}_pk`,
    cookieSessionsExpires: `${table.cookieSessions}_expires_index`,
    revocationsCreatedAt: `${table.sessionRevocations}_created_at_index`,
    revocationsSubject: `${table.sessionRevocations}_subject_index`,
    revocationsExpires: `${table.sessionRevocations}_expires_index`,
    organizationsSlugUnique: `${table.organizations}_slug_unique`,
    membersPk: `${table.members}_pk`,
    membersUserId: `${table.members}_user_id_index`,
    invitationsTokenHashUnique: `${table.invitations}_token_hash_unique`,
    // Also the index on organization_id (its first column). Not `_organization_email_unique`:
    // that would be the longest name the schema creates, and lower the prefix limit.
    invitationsEmailUnique: `${table.invitations}_org_email_unique`,
    // Short forms for the same reason (`_organization_id_index` would be the longest name).
    ssoConnectionsOrganizationId: `${table.ssoConnections}_org_id_index`,
    ssoDomainsPk: `${table.ssoDomains}_pk`,
    ssoDomainsDomain: `${table.ssoDomains}_domain_index`,
    // PostgreSQL and SQLite only (a partial index): one verified claim per domain.
    ssoDomainsVerifiedUnique: `${table.ssoDomains}_verified_unique`,
    // SCIM (issue #29), short forms as well. The unique ones start with organization_id, so they
    // are also the indexes listing an organization's users and groups.
    scimTokensOrgId: `${table.scimTokens}_org_id_index`,
    scimTokensHashUnique: `${table.scimTokens}_hash_unique`,
    scimUsersPk: `${table.scimUsers}_pk`,
    scimUsersUserId: `${table.scimUsers}_user_id_index`,
    scimUsersNameKeyUnique: `${table.scimUsers}_name_key`,
    scimUsersExternalIdUnique: `${table.scimUsers}_external_id`,
    scimGroupsNameKeyUnique: `${table.scimGroups}_name_key`,
    // API keys (issue #31).
    apiKeysHashUnique: `${table.apiKeys}_hash_unique`,
    apiKeysUserId: `${table.apiKeys}_user_id_index`,
    apiKeysOrgId: `${table.apiKeys}_org_id_index`,
    // Identity-provider records (issue #32). The (model, ...) ones are lookups within a model.
    oidcRecordsPk: `${table.oidcRecords}_pk`,
    oidcRecordsGrantId: `${table.oidcRecords}_grant_id_index`,
    oidcRecordsUid: `${table.oidcRecords}_model_uid_index`,
    oidcRecordsUserCode: `${table.oidcRecords}_model_user_code_index`,
    oidcRecordsAccountId: `${table.oidcRecords}_account_id_index`,
    oidcRecordsClientId: `${table.oidcRecords}_model_client_id_index`,
    oidcRecordsExpiresAt: `${table.oidcRecords}_expires_at_index`,
    // MySQL/MariaDB only: the index its AUTO_INCREMENT column needs (the insertion order).
    oidcRecordsSeq: `${table.oidcRecords}_seq_index`,
  }
  return { ...table, index }
}

/** Every table, index and constraint name the schema creates with this prefix. */
export function schemaIdentifiers(t: TableNames): string[] {
  const { index, ...tables } = t
  return [...Object.values(tables), ...Object.values(index)]
}

/** The longest name the schema creates without a prefix. */
const LONGEST_NAME = schemaIdentifiers(names("")).reduce((longest, name) => (name.length > longest.length ? name : longest))

/** The longest `tablePrefix` accepted: the longest name the schema creates must stay within `MAX_IDENTIFIER_LENGTH`. */
export const MAX_TABLE_PREFIX_LENGTH = MAX_IDENTIFIER_LENGTH - LONGEST_NAME.length

/** Checks the prefix (InvalidOption, before any database is touched) and returns every name. */
export function tableNames(options: TableOptions = {}): TableNames {
  const prefix = options.tablePrefix ?? ""
  if (typeof prefix !== "string" || !/^[A-Za-z0-9_]*$/.test(prefix)) {
    throw new InvalidOption(`tablePrefix must be letters, digits or '_' (got ${JSON.stringify(prefix)})`)
  }
  if (prefix.length > MAX_TABLE_PREFIX_LENGTH) {
    throw new InvalidOption(
      `tablePrefix must be at most ${MAX_TABLE_PREFIX_LENGTH} characters (got ${prefix.length}, ${JSON.stringify(prefix)}): ` +
        `the longest name the schema creates, ${JSON.stringify(prefix + LONGEST_NAME)}, must fit the ${MAX_IDENTIFIER_LENGTH}-character identifier limit ` +
        `of PostgreSQL (MySQL and MariaDB: 64)`,
    )
  }
  return names(prefix)
}
