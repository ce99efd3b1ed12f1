/**
 * Contract checks for the API key methods (issue #31): keys of a user or of an organization, read
 * back by hash and by id exactly as written (Dates as Dates, the scopes in order, nulls kept); the
 * hash unique (a second key with it is refused, nothing changed); a user's own keys listed oldest
 * first (not an organization's key the user made), an organization's likewise; a use recorded;
 * a key deleted for exactly one of concurrent callers; a user's keys gone with the user (an
 * organization key they made stays, `createdBy` as it was), an organization's with it.
 *
 * Other checks share the storage: every check makes its own users, organizations and keys.
 */
import { randomBytes, randomUUID } from "node:crypto"
import { expect } from "@jest/globals"
import type { AdapterApiKey } from "../../lib/api-keys/adapter.js"
import { newUser, type ContractContext } from "./fixtures.js"

/** Whole seconds, so every engine stores and returns them exactly; `offset` in seconds. */
const BASE = Math.floor(Date.now() / 1000) * 1000
const at = (offset: number) => new Date(BASE + offset * 1000)

/** A key record of `owner` as the capability makes one: a random hash, its start, the scopes. */
function newKey(owner: { userId: string } | { organizationId: string }, overrides: Partial<AdapterApiKey> = {}): AdapterApiKey {
  const secret = `gh_${randomBytes(24).toString("base64url")}`
  return {
    id: randomUUID(),
    keyHash: randomBytes(32).toString("base64url"),
    start: secret.slice(0, 7),
    name: `Key ${randomUUID().slice(0, 8)}`,
    userId: "userId" in owner ? owner.userId : null,
    organizationId: "organizationId" in owner ? owner.organizationId : null,
    createdBy: null,
    scopes: [],
    createdAt: at(0),
    expires: null,
    lastUsedAt: null,
    ...overrides,
  }
}

export function apiKeyChecks({ adapter, check }: ContractContext): void {
  /** A stored user; its id (the adapter's, which may differ from the fixture's). */
  const user = async () => (await adapter().createUser(newUser())).id
  /** A stored organization owned by `owner` (a new user when not given); its id. */
  const organization = async (owner?: string) => {
    const ownerId = owner ?? (await user())
    const id = randomUUID()
    await adapter().createOrganization(
      { id, slug: `keys-${id}`, name: `Keys ${id.slice(0, 8)}`, logo: null, metadata: null, roles: null, createdAt: at(0) },
      { organizationId: id, userId: ownerId, role: "owner", createdAt: at(0) },
    )
    return id
  }

  check("createApiKey stores a key read back by hash and by id as written: Dates as Dates, scopes in order, nulls kept", async () => {
    const userId = await user()
    const organizationId = await organization(userId)
    // Every optional field set, scopes deliberately out of alphabetical order.
    const full = newKey({ userId }, { createdBy: userId, scopes: ["project:write", "billing:read", "project:read"], createdAt: at(10), expires: at(86_400), lastUsedAt: at(20) })
    // Every optional field null, no scopes.
    const bare = newKey({ organizationId })
    expect(await adapter().createApiKey(full)).toEqual(full)
    expect(await adapter().createApiKey(bare)).toEqual(bare)

    for (const key of [full, bare]) {
      const byHash = await adapter().getApiKeyByHash(key.keyHash)
      expect(byHash).toEqual(key)
      expect(await adapter().getApiKey(key.id)).toEqual(key)
      expect(byHash?.createdAt).toBeInstanceOf(Date)
    }
    const read = await adapter().getApiKey(full.id)
    expect(read?.expires).toBeInstanceOf(Date)
    expect(read?.lastUsedAt).toBeInstanceOf(Date)
    expect(read?.scopes).toEqual(["project:write", "billing:read", "project:read"])
    expect(await adapter().getApiKey(bare.id)).toMatchObject({ userId: null, createdBy: null, expires: null, lastUsedAt: null, scopes: [] })

    expect(await adapter().getApiKeyByHash(randomBytes(32).toString("base64url"))).toBeNull()
    expect(await adapter().getApiKey(randomUUID())).toBeNull()
  })

  check("a second key with the same keyHash is refused (it throws) and nothing changes", async () => {
    const userId = await user()
    const first = newKey({ userId }, { name: "First", scopes: ["read"] })
    await adapter().createApiKey(first)
    const second = newKey({ userId }, { keyHash: first.keyHash, name: "Second", scopes: ["write"], createdAt: at(5) })
    await expect(Promise.resolve().then(() => adapter().createApiKey(second))).rejects.toThrow()
    expect(await adapter().getApiKeyByHash(first.keyHash)).toEqual(first)
    expect(await adapter().getApiKey(second.id)).toBeNull()
    expect(await adapter().listApiKeys({ userId })).toEqual([first])
  })

  check("listApiKeys({ userId }) lists only that user's own keys, oldest first (not an organization's key the user made); ({ organizationId }) only that organization's", async () => {
    const [ada, bob] = [await user(), await user()]
    const [acme, globex] = [await organization(ada), await organization(bob)]
    // Created out of order: the list is by age, not by insertion.
    const adaLater = newKey({ userId: ada }, { createdBy: ada, createdAt: at(30) })
    const adaEarlier = newKey({ userId: ada }, { createdBy: ada, createdAt: at(10) })
    const bobs = newKey({ userId: bob }, { createdBy: bob, createdAt: at(20) })
    const acmeLater = newKey({ organizationId: acme }, { createdBy: ada, createdAt: at(25) })
    const acmeEarlier = newKey({ organizationId: acme }, { createdBy: bob, createdAt: at(5) })
    const globexKey = newKey({ organizationId: globex }, { createdBy: ada, createdAt: at(15) })
    for (const key of [adaLater, acmeLater, adaEarlier, bobs, globexKey, acmeEarlier]) await adapter().createApiKey(key)

    expect(await adapter().listApiKeys({ userId: ada })).toEqual([adaEarlier, adaLater])
    expect(await adapter().listApiKeys({ userId: bob })).toEqual([bobs])
    expect(await adapter().listApiKeys({ organizationId: acme })).toEqual([acmeEarlier, acmeLater])
    expect(await adapter().listApiKeys({ organizationId: globex })).toEqual([globexKey])
    expect(await adapter().listApiKeys({ userId: await user() })).toEqual([])
    expect(await adapter().listApiKeys({ organizationId: randomUUID() })).toEqual([])
  })

  check("touchApiKey records the use (lastUsedAt) and changes nothing else; an unknown id is no error", async () => {
    const userId = await user()
    const key = newKey({ userId }, { scopes: ["read"], expires: at(3600) })
    const other = newKey({ userId }, { createdAt: at(1) })
    await adapter().createApiKey(key)
    await adapter().createApiKey(other)
    await adapter().touchApiKey(key.id, at(60))
    expect(await adapter().getApiKey(key.id)).toEqual({ ...key, lastUsedAt: at(60) })
    await adapter().touchApiKey(key.id, at(120))
    expect(await adapter().getApiKeyByHash(key.keyHash)).toEqual({ ...key, lastUsedAt: at(120) })
    expect(await adapter().getApiKey(other.id)).toEqual(other)
    await adapter().touchApiKey(randomUUID(), at(60))
  })

  check("deleteApiKey returns the key once, then null; it is gone, another key stays", async () => {
    const userId = await user()
    const key = newKey({ userId }, { scopes: ["a", "b"], createdBy: userId })
    const other = newKey({ userId }, { createdAt: at(1) })
    await adapter().createApiKey(key)
    await adapter().createApiKey(other)
    expect(await adapter().deleteApiKey(key.id)).toEqual(key)
    expect(await adapter().deleteApiKey(key.id)).toBeNull()
    expect(await adapter().getApiKey(key.id)).toBeNull()
    expect(await adapter().getApiKeyByHash(key.keyHash)).toBeNull()
    expect(await adapter().listApiKeys({ userId })).toEqual([other])
    expect(await adapter().deleteApiKey(randomUUID())).toBeNull()
  })

  check("deleteApiKey under concurrent callers: exactly one gets the key", async () => {
    const organizationId = await organization()
    const key = newKey({ organizationId })
    await adapter().createApiKey(key)
    const results = await Promise.all(Array.from({ length: 5 }, () => adapter().deleteApiKey(key.id)))
    expect(results.filter((result) => result !== null)).toEqual([key])
    expect(await adapter().getApiKey(key.id)).toBeNull()
  })

  check("deleteUser removes the user's own keys and keeps an organization key they made (createdBy as it was)", async () => {
    const [leaving, staying] = [await user(), await user()]
    const organizationId = await organization(staying)
    const own = newKey({ userId: leaving }, { createdBy: leaving })
    const made = newKey({ organizationId }, { createdBy: leaving, createdAt: at(1) })
    const others = newKey({ userId: staying }, { createdBy: staying })
    for (const key of [own, made, others]) await adapter().createApiKey(key)

    await adapter().deleteUser(leaving)
    expect(await adapter().getApiKey(own.id)).toBeNull()
    expect(await adapter().getApiKeyByHash(own.keyHash)).toBeNull()
    expect(await adapter().listApiKeys({ userId: leaving })).toEqual([])
    expect(await adapter().getApiKey(made.id)).toEqual(made)
    expect(await adapter().listApiKeys({ organizationId })).toEqual([made])
    expect(await adapter().getApiKey(others.id)).toEqual(others)
  })

  check("deleteOrganization removes its keys; another organization's keys and the users' keys stay", async () => {
    const owner = await user()
    const [gone, kept] = [await organization(owner), await organization(owner)]
    const goneKeys = [newKey({ organizationId: gone }, { createdBy: owner }), newKey({ organizationId: gone }, { createdAt: at(1) })]
    const keptKey = newKey({ organizationId: kept }, { createdBy: owner })
    const ownerKey = newKey({ userId: owner }, { createdBy: owner })
    for (const key of [...goneKeys, keptKey, ownerKey]) await adapter().createApiKey(key)

    await adapter().deleteOrganization(gone)
    for (const key of goneKeys) {
      expect(await adapter().getApiKey(key.id)).toBeNull()
      expect(await adapter().getApiKeyByHash(key.keyHash)).toBeNull()
    }
    expect(await adapter().listApiKeys({ organizationId: gone })).toEqual([])
    expect(await adapter().listApiKeys({ organizationId: kept })).toEqual([keptKey])
    expect(await adapter().listApiKeys({ userId: owner })).toEqual([ownerKey])
  })
}
