/**
 * The MongoDB adapter's pure parts, without a server: id and document converters (also through
 * the driver's own BSON serializer, what goes over the wire), the index specifications and the
 * transaction-support check. The adapter against a real server: `npm run test:mongodb`.
 */
import { describe, expect, it } from "@jest/globals"
import { BSON, ObjectId } from "mongodb"
import { format, from, fromRecord, fromUser, isObjectIdHex, key, to, toObjectId } from "../../adapters/mongodb/convert.js"
import { collectionNames, DEFAULT_COLLECTIONS, indexSpecs } from "../../adapters/mongodb/collections.js"
import { transactionsSupported } from "../../adapters/mongodb/transactions.js"

const HEX = "65a1b2c3d4e5f60718293a4b"
const USER_HEX = "0123456789abcdef01234567"
const NOT_IDS: unknown[] = [
  "0b8c2d3e-4f50-4a61-8b72-93a4b5c6d7e8", // a UUID
  HEX.toUpperCase(), // valid for ObjectId, but not the canonical form: would break exact comparisons
  "aaaaaaaaaaaa", // 12 characters: the bson package once took these as raw bytes
  HEX.slice(1),
  `${HEX}0`,
  `${HEX} `,
  "",
  "zzzzzzzzzzzzzzzzzzzzzzzz",
  123,
  null,
  undefined,
  { $ne: null },
  new ObjectId(HEX), // ids in records are strings
]

describe("ObjectId ids", () => {
  it("a 24-character lowercase hex string is an id; toObjectId gives the ObjectId with that hex", () => {
    expect(isObjectIdHex(HEX)).toBe(true)
    const id = toObjectId(HEX)
    expect(id).toBeInstanceOf(ObjectId)
    expect(id.toHexString()).toBe(HEX)
  })

  it.each(NOT_IDS.map((value) => [value]))("%p is not an id: a TypeError, never a generated ObjectId", (value) => {
    expect(isObjectIdHex(value)).toBe(false)
    expect(() => toObjectId(value)).toThrow(TypeError)
  })

  it("the TypeError names the rejected string", () => {
    expect(() => toObjectId("not-an-object-id")).toThrow(/"not-an-object-id" is not a MongoDB ObjectId/)
  })

  it("lookup keys must be strings, so no operator object can reach a filter", () => {
    expect(key("token-1", "sessionToken")).toBe("token-1")
    expect(key("", "email")).toBe("")
    expect(() => key({ $ne: null }, "sessionToken")).toThrow(/sessionToken must be a string/)
    expect(() => key(["a"], "token")).toThrow(TypeError)
    expect(() => key(undefined, "identifier")).toThrow(TypeError)
  })
})

describe("to(): records to documents", () => {
  it("turns id into an ObjectId _id and userId into an ObjectId", () => {
    const document = to({ id: HEX, userId: USER_HEX, name: "Ada" })
    expect(document._id).toBeInstanceOf(ObjectId)
    expect(document._id.toHexString()).toBe(HEX)
    expect(document.userId).toBeInstanceOf(ObjectId)
    expect(document.userId.toHexString()).toBe(USER_HEX)
    expect(document).not.toHaveProperty("id")
    expect(document.name).toBe("Ada")
  })

  it("leaves nested values and Dates untouched (the same values), and other fields as they are", () => {
    const expires = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678))
    const sessionState = { sid: "state-1", nested: { id: "not-converted", userId: "not-converted" } }
    const details = [{ type: "payment_initiation", actions: ["initiate"] }]
    const document = to({ userId: USER_HEX, expires, session_state: sessionState, authorization_details: details, counter: 0, flag: false, image: null })
    expect(document.expires).toBe(expires)
    expect(document.session_state).toBe(sessionState)
    expect(document.session_state).toEqual({ sid: "state-1", nested: { id: "not-converted", userId: "not-converted" } })
    expect(document.authorization_details).toBe(details)
    expect(document).toMatchObject({ counter: 0, flag: false, image: null })
  })

  it("adds no _id when the record has no id, drops undefined fields, and ignores a stray _id", () => {
    const document = to({ identifier: "a@example.com", token: "t", refresh_token: undefined, _id: "forged" })
    expect(document).toEqual({ identifier: "a@example.com", token: "t" })
    expect(Object.keys(document)).toEqual(["identifier", "token"])
  })

  it("rejects an id or userId that is not an ObjectId, naming it", () => {
    expect(() => to({ id: "0b8c2d3e-4f50-4a61-8b72-93a4b5c6d7e8" })).toThrow(/"0b8c2d3e-4f50-4a61-8b72-93a4b5c6d7e8"/)
    expect(() => to({ userId: "user-1" })).toThrow(TypeError)
    expect(() => to({ userId: null })).toThrow(TypeError)
  })
})

describe("from(): documents to records", () => {
  it("turns _id into id and an ObjectId userId into its hex string, and removes _id", () => {
    const record = from({ _id: new ObjectId(HEX), userId: new ObjectId(USER_HEX), provider: "github" })
    expect(record).toEqual({ id: HEX, userId: USER_HEX, provider: "github" })
    expect(record).not.toHaveProperty("_id")
  })

  it("leaves nested values and Dates untouched", () => {
    const expires = new Date(Date.UTC(2026, 5, 1))
    const state = { _id: new ObjectId(HEX), userId: new ObjectId(USER_HEX) }
    const record = from<Record<string, unknown>>({ _id: new ObjectId(HEX), expires, state })
    expect(record.expires).toBe(expires)
    expect(record.state).toBe(state)
    expect((record.state as typeof state)._id).toBeInstanceOf(ObjectId)
  })

  it("reads an ObjectId from another copy of the bson package by its _bsontype", () => {
    const foreign = { _bsontype: "ObjectId", toHexString: () => HEX }
    expect(from({ _id: foreign })).toEqual({ id: HEX })
  })

  it("fromRecord drops the document's own _id (accounts, sessions, tokens, authenticators have no id)", () => {
    const expires = new Date()
    expect(fromRecord({ _id: new ObjectId(), sessionToken: "s", userId: new ObjectId(USER_HEX), expires })).toEqual({ sessionToken: "s", userId: USER_HEX, expires })
    const record = fromRecord({ _id: new ObjectId(), identifier: "a", token: "t", expires })
    expect(record).not.toHaveProperty("id")
    expect(record).not.toHaveProperty("_id")
  })

  it("fromUser gives email \"\" when none is stored and emailVerified null when unset", () => {
    expect(fromUser({ _id: new ObjectId(HEX), name: "Ada" })).toEqual({ id: HEX, name: "Ada", email: "", emailVerified: null })
    const verified = new Date(Date.UTC(2026, 0, 1))
    const user = fromUser({ _id: new ObjectId(HEX), email: "ada@example.com", emailVerified: verified, image: null })
    expect(user).toEqual({ id: HEX, email: "ada@example.com", emailVerified: verified, image: null })
    expect(user.emailVerified).toBe(verified)
  })

  it("format is { from, to }, as Auth.js exports it", () => {
    expect(format.from).toBe(from)
    expect(format.to).toBe(to)
  })
})

describe("through the driver's BSON serializer (what goes over the wire)", () => {
  const wire = (document: Record<string, unknown>) => BSON.deserialize(BSON.serialize(document))

  it("an account comes back as it went in: ObjectId userId, nested JSON values, numbers", () => {
    const account = {
      userId: USER_HEX,
      type: "oidc",
      provider: "provider-a",
      providerAccountId: "12345",
      access_token: "access",
      expires_at: 1_900_000_000,
      session_state: { sid: "state-1" },
      authorization_details: [{ type: "payment_initiation", actions: ["initiate"] }],
    }
    const stored = wire({ _id: new ObjectId(), ...to(account) })
    expect(stored.userId).toBeInstanceOf(ObjectId)
    expect(fromRecord(stored)).toEqual(account)
  })

  it("Dates come back as Dates (of this realm), to the millisecond; null stays null", () => {
    const verified = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678))
    const user = fromUser(wire(to({ id: HEX, email: "ada@example.com", emailVerified: verified, name: null })))
    expect(user.emailVerified).toBeInstanceOf(Date)
    expect(user.emailVerified?.getTime()).toBe(verified.getTime())
    expect(user.name).toBeNull()
    expect(user.id).toBe(HEX)
  })

  it("an authenticator's counter, booleans and null transports survive", () => {
    const authenticator = {
      credentialID: "cred-1",
      userId: USER_HEX,
      providerAccountId: "cred-1",
      credentialPublicKey: "pQECAyYgASFYIGQ",
      counter: 4_294_967_295, // the largest WebAuthn counter: above int32, stored as a double
      credentialDeviceType: "multiDevice",
      credentialBackedUp: true,
      transports: null,
    }
    expect(fromRecord(wire({ _id: new ObjectId(), ...to(authenticator) }))).toEqual(authenticator)
  })
})

describe("collections and indexes", () => {
  it("default collection names", () => {
    expect(collectionNames()).toEqual({
      Users: "users",
      Accounts: "accounts",
      Sessions: "sessions",
      VerificationTokens: "verification_tokens",
      Authenticators: "authenticators",
      TwoFactor: "two_factor",
      RecoveryCodes: "recovery_codes",
      Passwords: "passwords",
      CookieSessions: "cookie_sessions",
      SessionRevocations: "session_revocations",
      Organizations: "organizations",
      Members: "members",
      Invitations: "invitations",
      SsoConnections: "sso_connections",
      SsoDomains: "sso_domains",
      ScimTokens: "scim_tokens",
      ScimUsers: "scim_users",
      ScimGroups: "scim_groups",
      UserBans: "user_bans",
      ApiKeys: "api_keys",
      OidcRecords: "oidc_records",
    })
    expect(collectionNames({ collections: { Users: "people" } })).toEqual({ ...DEFAULT_COLLECTIONS, Users: "people" })
  })

  it.each(["", "a$b", "system.users"])("refuses %p as a collection name", (name) => {
    expect(() => collectionNames({ collections: { Sessions: name } })).toThrow(/collections\.Sessions/)
  })

  it("unique indexes for every constraint the core relies on, the email one partial; plain indexes on userId", () => {
    const specs = Object.fromEntries(indexSpecs(collectionNames()).map(({ collection, indexes }) => [collection, indexes]))
    expect(specs).toEqual({
      users: [{ key: { email: 1 }, unique: true, partialFilterExpression: { email: { $type: "string" } } }, { key: { email: 1, _id: 1 } }],
      accounts: [{ key: { provider: 1, providerAccountId: 1 }, unique: true }, { key: { userId: 1 } }],
      sessions: [{ key: { sessionToken: 1 }, unique: true }, { key: { userId: 1 } }],
      verification_tokens: [{ key: { identifier: 1, token: 1 }, unique: true }],
      authenticators: [{ key: { credentialID: 1 }, unique: true }, { key: { userId: 1 } }],
      recovery_codes: [{ key: { userId: 1, hash: 1 }, unique: true }],
      cookie_sessions: [{ key: { userId: 1 } }, { key: { expires: 1 }, expireAfterSeconds: 0 }],
      session_revocations: [{ key: { createdAt: 1 } }, { key: { key: 1 } }, { key: { expires: 1 }, expireAfterSeconds: 0 }],
      organizations: [{ key: { slug: 1 }, unique: true }],
      members: [{ key: { organizationId: 1, userId: 1 }, unique: true }, { key: { userId: 1 } }],
      invitations: [{ key: { tokenHash: 1 }, unique: true }, { key: { organizationId: 1, email: 1 }, unique: true }],
      sso_connections: [{ key: { organizationId: 1 } }],
      sso_domains: [
        { key: { organizationId: 1, domain: 1 }, unique: true },
        { key: { domain: 1 } },
        { key: { verifiedDomain: 1 }, unique: true, partialFilterExpression: { verifiedDomain: { $type: "string" } } },
      ],
      scim_tokens: [{ key: { tokenHash: 1 }, unique: true }, { key: { organizationId: 1 } }],
      scim_users: [
        { key: { organizationId: 1, userId: 1 }, unique: true },
        { key: { organizationId: 1, userNameKey: 1 }, unique: true },
        { key: { organizationId: 1, externalId: 1 }, unique: true, partialFilterExpression: { externalId: { $type: "string" } } },
        { key: { userId: 1 } },
      ],
      scim_groups: [{ key: { organizationId: 1, displayNameKey: 1 }, unique: true }, { key: { members: 1 } }],
      api_keys: [{ key: { keyHash: 1 }, unique: true }, { key: { userId: 1 } }, { key: { organizationId: 1 } }],
      oidc_records: [
        { key: { model: 1, id: 1 }, unique: true },
        { key: { grantId: 1 } },
        { key: { model: 1, uid: 1 } },
        { key: { model: 1, userCode: 1 } },
        { key: { accountId: 1, model: 1 } },
        { key: { model: 1, clientId: 1 } },
        { key: { expiresAt: 1 }, expireAfterSeconds: 0 },
      ],
    })
  })

  it("indexes follow custom collection names", () => {
    const names = collectionNames({ collections: { Users: "auth_users", VerificationTokens: "auth_tokens" } })
    expect(indexSpecs(names).map(({ collection }) => collection)).toEqual(["auth_users", "accounts", "sessions", "auth_tokens", "authenticators", "recovery_codes", "cookie_sessions", "session_revocations", "organizations", "members", "invitations", "sso_connections", "sso_domains", "scim_tokens", "scim_users", "scim_groups", "api_keys", "oidc_records"])
  })
})

describe("transaction support, from the server's hello reply", () => {
  it("a replica set member (setName) or mongos (isdbgrid) runs transactions; a standalone does not", () => {
    expect(transactionsSupported({ isWritablePrimary: true, setName: "rs0", logicalSessionTimeoutMinutes: 30 })).toBe(true)
    expect(transactionsSupported({ isWritablePrimary: true, msg: "isdbgrid", logicalSessionTimeoutMinutes: 30 })).toBe(true)
    expect(transactionsSupported({ isWritablePrimary: true, logicalSessionTimeoutMinutes: 30 })).toBe(false)
    expect(transactionsSupported({ ismaster: true })).toBe(false)
  })
})
