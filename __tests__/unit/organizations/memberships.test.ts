/**
 * The per-process membership cache (issue #27): a fresh answer is used with no adapter call; a
 * change drops it at once; a load that was running when a change was made is not kept (it may
 * carry the old role); an answer is trusted for at most MEMBERSHIP_REFRESH_MS.
 */
import { describe, expect, it } from "@jest/globals"
import { MembershipCache, MEMBERSHIP_REFRESH_MS } from "../../../lib/organizations/memberships.js"
import { resolveOrganizations } from "../../../lib/organizations/options.js"
import { MemoryAdapter } from "../../../adapters/memory/index.js"
import type { AdapterMembership } from "../../../lib/adapters.js"
import type { ResolvedConfig } from "../../../lib/core/config/resolved.js"

const settings = resolveOrganizations({ roles: { admin: { project: ["write"] } } }, MemoryAdapter(), [])!

function row(role: string): AdapterMembership {
  const organization = { id: "org-1", slug: "acme", name: "Acme", createdAt: new Date(0) }
  return { organizationId: "org-1", userId: "u-1", role, createdAt: new Date(0), organization }
}

/** A config whose adapter answers what `answers` holds, when `release` is called. */
function fakeConfig() {
  let calls = 0
  let role = "member"
  const waiting: Array<() => void> = []
  const config = {
    adapter: {
      listMemberships: async () => {
        calls++
        const answer = [row(role)]
        await new Promise<void>((resolve) => waiting.push(resolve))
        return answer
      },
    },
  } as unknown as ResolvedConfig
  return { config, calls: () => calls, setRole: (next: string) => (role = next), release: () => waiting.splice(0).forEach((go) => go()) }
}

describe("the membership cache", () => {
  it("answers from memory while fresh, and asks again after the refresh bound", async () => {
    const fake = fakeConfig()
    const cache = new MembershipCache()
    const loading = cache.load(fake.config, settings, "u-1")
    fake.release()
    const loaded = await loading
    expect(loaded.list[0]!.fact).toEqual({ id: "org-1", slug: "acme", role: "member", permissions: [] })
    expect(cache.get("u-1", Date.now())).toBe(loaded)
    expect(cache.get("u-1", Date.now() + MEMBERSHIP_REFRESH_MS + 1)).toBeUndefined()
    expect(fake.calls()).toBe(1)
  })

  it("a drop removes the answer at once, and a load that ran across the change is used once, not kept", async () => {
    const fake = fakeConfig()
    const cache = new MembershipCache()
    const first = cache.load(fake.config, settings, "u-1")
    fake.release()
    await first
    // A load starts, with the old role; the role changes and the change drops the user meanwhile.
    const stale = cache.load(fake.config, settings, "u-1")
    fake.setRole("admin")
    cache.drop("u-1")
    expect(cache.get("u-1", Date.now())).toBeUndefined()
    fake.release()
    expect((await stale).list[0]!.fact.role).toBe("member")
    expect(cache.get("u-1", Date.now())).toBeUndefined()
    // The next load reads the new role, and is kept.
    const fresh = cache.load(fake.config, settings, "u-1")
    fake.release()
    expect((await fresh).list[0]!.fact).toEqual({ id: "org-1", slug: "acme", role: "admin", permissions: expect.arrayContaining(["project:write", "member:update"]) })
    expect(cache.get("u-1", Date.now())?.list[0]!.fact.role).toBe("admin")
  })

  it("concurrent reads of one user share one load", async () => {
    const fake = fakeConfig()
    const cache = new MembershipCache()
    const reads = [cache.load(fake.config, settings, "u-1"), cache.load(fake.config, settings, "u-1"), cache.load(fake.config, settings, "u-1")]
    fake.release()
    const answers = await Promise.all(reads)
    expect(fake.calls()).toBe(1)
    expect(new Set(answers).size).toBe(1)
  })
})
