/**
 * Contract checks for the identity provider's records (issue #32): a record read back exactly as
 * written (Dates as Dates, nulls kept, a 200 KiB payload intact); storing one of the same model
 * and id replaces it whole (`consumedAt` back to null included), also under concurrent stores;
 * an expired record is invisible to every read and cannot be consumed; lookups by uid and user
 * code within a model; a record consumed for exactly one of concurrent callers; a record, and a
 * grant's records of every model, deleted; a model's records listed by account and client, oldest
 * first; the records about a user gone with the user.
 *
 * Other checks share the storage: every check makes its own ids, grants, accounts and clients.
 */
import { randomBytes, randomUUID } from "node:crypto"
import { expect } from "@jest/globals"
import type { AdapterOidcRecord } from "../../lib/identity-provider/adapter.js"
import { newUser, type ContractContext } from "./fixtures.js"

/** Whole seconds, so every engine stores and returns them exactly; `offset` in seconds. */
const BASE = Math.floor(Date.now() / 1000) * 1000
const at = (offset: number) => new Date(BASE + offset * 1000)
/** Long past, and far ahead (the checks take seconds, not hours). */
const PAST = () => new Date(Math.floor(Date.now() / 1000) * 1000 - 3_600_000)
const FUTURE = at(86_400)

const unique = () => randomUUID().replace(/-/g, "").slice(0, 12)

/** A record of `model` as the identity provider writes one: references null unless given. */
function newRecord(model: string, overrides: Partial<AdapterOidcRecord> = {}): AdapterOidcRecord {
  const id = randomBytes(32).toString("base64url")
  return {
    model,
    id,
    payload: JSON.stringify({ jti: id, kind: model, iat: BASE / 1000 }),
    grantId: null,
    userCode: null,
    uid: null,
    accountId: null,
    clientId: null,
    expiresAt: FUTURE,
    consumedAt: null,
    ...overrides,
  }
}

export function identityProviderChecks({ adapter, check }: ContractContext): void {
  /** Stores the records one after another (in this order: the insertion order). */
  const putAll = async (...records: AdapterOidcRecord[]) => {
    for (const record of records) await adapter().putOidcRecord(record)
  }

  check("putOidcRecord stores a record read back by getOidcRecord as written: Dates as Dates, nulls kept, a 200 KiB payload intact", async () => {
    // Every reference set, and a payload far over 64 KiB, with characters beyond ASCII.
    const payload = JSON.stringify({ accountId: "ada", note: "Grüße ✓ 🔑", blob: randomBytes(150 * 1024).toString("base64url") })
    expect(payload.length).toBeGreaterThan(200 * 1024)
    const full = newRecord("Session", { payload, grantId: unique(), uid: unique(), accountId: unique(), clientId: unique(), userCode: unique(), expiresAt: at(3600), consumedAt: at(10) })
    // Every reference null, and no expiry (a Client).
    const bare = newRecord("Client", { expiresAt: null })
    await putAll(full, bare)

    const read = await adapter().getOidcRecord("Session", full.id)
    expect(read).toEqual(full)
    expect(read?.payload).toBe(payload)
    expect(read?.expiresAt).toBeInstanceOf(Date)
    expect(read?.consumedAt).toBeInstanceOf(Date)
    expect(await adapter().getOidcRecord("Client", bare.id)).toEqual(bare)
    // The name is (model, id): the same id under another model is another record.
    expect(await adapter().getOidcRecord("Client", full.id)).toBeNull()
    expect(await adapter().getOidcRecord("Session", randomBytes(32).toString("base64url"))).toBeNull()
  })

  check("putOidcRecord with the model and id of a stored record replaces it whole, consumedAt back to null included", async () => {
    const first = newRecord("RefreshToken", { grantId: unique(), accountId: unique(), clientId: unique(), consumedAt: at(5) })
    const other = newRecord("RefreshToken", { grantId: first.grantId })
    await putAll(first, other)
    const second: AdapterOidcRecord = { ...first, payload: JSON.stringify({ rotated: true }), grantId: unique(), accountId: null, clientId: unique(), expiresAt: at(7200), consumedAt: null }
    await adapter().putOidcRecord(second)
    expect(await adapter().getOidcRecord("RefreshToken", first.id)).toEqual(second)
    // Not consumed any more: it can be consumed again.
    expect(await adapter().consumeOidcRecord("RefreshToken", first.id, at(20))).toBe(true)
    expect(await adapter().getOidcRecord("RefreshToken", other.id)).toEqual(other)
    expect(await adapter().listOidcRecords("RefreshToken", { clientId: first.clientId as string })).toEqual([])
  })

  check("putOidcRecord under concurrent callers with one model and id: none fails, and one of the records written is stored", async () => {
    const base = newRecord("Interaction", { uid: unique() })
    const versions = Array.from({ length: 10 }, (_, n) => ({ ...base, payload: JSON.stringify({ version: n }), clientId: `client-${n}` }))
    await Promise.all(versions.map((version) => adapter().putOidcRecord(version)))
    const stored = await adapter().getOidcRecord("Interaction", base.id)
    expect(versions).toContainEqual(stored)
    expect(await adapter().findOidcRecord("Interaction", { uid: base.uid as string })).toEqual(stored)
  })

  check("an expired record is returned by no read (getOidcRecord, findOidcRecord, listOidcRecords) and cannot be consumed", async () => {
    const [accountId, clientId] = [unique(), unique()]
    const expired = newRecord("Session", { uid: unique(), accountId, clientId, expiresAt: PAST() })
    const code = newRecord("DeviceCode", { userCode: unique(), accountId, expiresAt: PAST() })
    const live = newRecord("Session", { uid: unique(), accountId, clientId })
    await putAll(expired, code, live)
    expect(await adapter().getOidcRecord("Session", expired.id)).toBeNull()
    expect(await adapter().findOidcRecord("Session", { uid: expired.uid as string })).toBeNull()
    expect(await adapter().findOidcRecord("DeviceCode", { userCode: code.userCode as string })).toBeNull()
    expect(await adapter().listOidcRecords("Session", { accountId })).toEqual([live])
    expect(await adapter().listOidcRecords("Session", { clientId })).toEqual([live])
    expect(await adapter().listOidcRecords("DeviceCode", { accountId })).toEqual([])
    expect(await adapter().consumeOidcRecord("Session", expired.id, at(1))).toBe(false)
    expect(await adapter().consumeOidcRecord("DeviceCode", code.id, at(1))).toBe(false)
  })

  check("findOidcRecord finds the unexpired record with that uid or user code within the given model only", async () => {
    const [uid, userCode] = [unique(), unique()]
    const session = newRecord("Session", { uid, accountId: unique() })
    // The same uid and user code under other models.
    const interaction = newRecord("Interaction", { uid })
    const device = newRecord("DeviceCode", { userCode, clientId: unique() })
    const backchannel = newRecord("BackchannelAuthenticationRequest", { userCode })
    await putAll(session, interaction, device, backchannel)
    expect(await adapter().findOidcRecord("Session", { uid })).toEqual(session)
    expect(await adapter().findOidcRecord("Interaction", { uid })).toEqual(interaction)
    expect(await adapter().findOidcRecord("DeviceCode", { userCode })).toEqual(device)
    expect(await adapter().findOidcRecord("BackchannelAuthenticationRequest", { userCode })).toEqual(backchannel)
    expect(await adapter().findOidcRecord("Grant", { uid })).toBeNull()
    expect(await adapter().findOidcRecord("Session", { uid: unique() })).toBeNull()
    expect(await adapter().findOidcRecord("DeviceCode", { userCode: unique() })).toBeNull()
    // A uid is not a user code.
    expect(await adapter().findOidcRecord("Session", { userCode: uid })).toBeNull()
  })

  check("consumeOidcRecord returns true once, recording when, then false; false for a missing record", async () => {
    const code = newRecord("AuthorizationCode", { grantId: unique(), accountId: unique(), clientId: unique() })
    const other = newRecord("AuthorizationCode")
    await putAll(code, other)
    expect(await adapter().consumeOidcRecord("AuthorizationCode", code.id, at(30))).toBe(true)
    expect(await adapter().getOidcRecord("AuthorizationCode", code.id)).toEqual({ ...code, consumedAt: at(30) })
    expect(await adapter().consumeOidcRecord("AuthorizationCode", code.id, at(40))).toBe(false)
    expect((await adapter().getOidcRecord("AuthorizationCode", code.id))?.consumedAt).toEqual(at(30))
    expect(await adapter().getOidcRecord("AuthorizationCode", other.id)).toEqual(other)
    expect(await adapter().consumeOidcRecord("AuthorizationCode", randomBytes(32).toString("base64url"), at(30))).toBe(false)
    // The same id under another model is not there.
    expect(await adapter().consumeOidcRecord("RefreshToken", other.id, at(30))).toBe(false)
  })

  check("consumeOidcRecord under 20 concurrent callers: exactly one gets true", async () => {
    const code = newRecord("AuthorizationCode", { grantId: unique() })
    await adapter().putOidcRecord(code)
    const results = await Promise.all(Array.from({ length: 20 }, (_, n) => adapter().consumeOidcRecord("AuthorizationCode", code.id, at(n))))
    expect(results.filter((result) => result === true)).toHaveLength(1)
    const winner = results.indexOf(true)
    expect(await adapter().getOidcRecord("AuthorizationCode", code.id)).toEqual({ ...code, consumedAt: at(winner) })
  })

  check("deleteOidcRecord deletes that record only (the same id under another model stays); a missing one is no error", async () => {
    const token = newRecord("AccessToken", { grantId: unique() })
    const sameId = newRecord("ClientCredentials", { id: token.id })
    const sameGrant = newRecord("AccessToken", { grantId: token.grantId })
    await putAll(token, sameId, sameGrant)
    await adapter().deleteOidcRecord("AccessToken", token.id)
    expect(await adapter().getOidcRecord("AccessToken", token.id)).toBeNull()
    expect(await adapter().getOidcRecord("ClientCredentials", token.id)).toEqual(sameId)
    expect(await adapter().getOidcRecord("AccessToken", sameGrant.id)).toEqual(sameGrant)
    await adapter().deleteOidcRecord("AccessToken", token.id)
    await adapter().deleteOidcRecord("Session", randomBytes(32).toString("base64url"))
  })

  check("deleteOidcGrant deletes the grant's records of every model and nothing else", async () => {
    const [grantId, otherGrant, accountId] = [unique(), unique(), unique()]
    const ofGrant = [
      newRecord("Grant", { id: grantId, grantId, accountId }),
      newRecord("AuthorizationCode", { grantId, accountId, consumedAt: at(1) }),
      newRecord("AccessToken", { grantId, accountId }),
      newRecord("RefreshToken", { grantId, accountId, expiresAt: null }),
    ]
    const kept = [newRecord("AccessToken", { grantId: otherGrant, accountId }), newRecord("Session", { accountId, uid: unique() }), newRecord("Grant", { id: otherGrant, grantId: otherGrant, accountId })]
    await putAll(...ofGrant, ...kept)
    await adapter().deleteOidcGrant(grantId)
    for (const record of ofGrant) expect(await adapter().getOidcRecord(record.model, record.id)).toBeNull()
    for (const record of kept) expect(await adapter().getOidcRecord(record.model, record.id)).toEqual(record)
    await adapter().deleteOidcGrant(unique())
  })

  check("listOidcRecords lists a model's unexpired records by accountId, by clientId or by both, oldest first", async () => {
    const [ada, bob, web, cli] = [unique(), unique(), unique(), unique()]
    const model = `Session${unique()}`
    const adaWeb = newRecord(model, { accountId: ada, clientId: web })
    const bobWeb = newRecord(model, { accountId: bob, clientId: web })
    const adaCli = newRecord(model, { accountId: ada, clientId: cli, expiresAt: null })
    const adaWebLater = newRecord(model, { accountId: ada, clientId: web, consumedAt: at(3) })
    const adaWebExpired = newRecord(model, { accountId: ada, clientId: web, expiresAt: PAST() })
    // Ada's and the web client's records under another model: never listed for this one.
    const otherModel = newRecord("AccessToken", { accountId: ada, clientId: web })
    await putAll(adaWeb, bobWeb, adaWebExpired, otherModel, adaCli, adaWebLater)

    expect(await adapter().listOidcRecords(model, { accountId: ada })).toEqual([adaWeb, adaCli, adaWebLater])
    expect(await adapter().listOidcRecords(model, { clientId: web })).toEqual([adaWeb, bobWeb, adaWebLater])
    expect(await adapter().listOidcRecords(model, { accountId: ada, clientId: web })).toEqual([adaWeb, adaWebLater])
    expect(await adapter().listOidcRecords(model, { accountId: bob, clientId: cli })).toEqual([])
    expect(await adapter().listOidcRecords(model, {})).toEqual([adaWeb, bobWeb, adaCli, adaWebLater])
    expect(await adapter().listOidcRecords("AccessToken", { accountId: ada })).toEqual([otherModel])
    expect(await adapter().listOidcRecords(model, { accountId: unique() })).toEqual([])
  })

  check("deleteUser removes the records about the user, of every model, and keeps everyone else's", async () => {
    const [leaving, staying] = [(await adapter().createUser(newUser())).id, (await adapter().createUser(newUser())).id]
    const clientId = unique()
    const theirs = [
      newRecord("Session", { accountId: leaving, uid: unique() }),
      newRecord("Grant", { accountId: leaving, clientId }),
      newRecord("AccessToken", { accountId: leaving, clientId, grantId: unique() }),
    ]
    const others = [newRecord("Session", { accountId: staying, uid: unique() }), newRecord("AccessToken", { accountId: staying, clientId }), newRecord("Client", { id: clientId, clientId, expiresAt: null })]
    await putAll(...theirs, ...others)

    await adapter().deleteUser(leaving)
    for (const record of theirs) expect(await adapter().getOidcRecord(record.model, record.id)).toBeNull()
    expect(await adapter().listOidcRecords("AccessToken", { accountId: leaving })).toEqual([])
    for (const record of others) expect(await adapter().getOidcRecord(record.model, record.id)).toEqual(record)
    expect(await adapter().listOidcRecords("AccessToken", { clientId })).toEqual([others[1]])
  })
}
