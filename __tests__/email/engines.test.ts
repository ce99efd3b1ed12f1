/**
 * EMAIL-01 (hashed at rest), EMAIL-03 (a token is bound to its address) and EMAIL-04 (one link
 * used by 20 browsers at once: exactly one wins) on every storage engine: the memory adapter and
 * the SQL adapter on SQLite, PostgreSQL and MariaDB, in tables of this file's own prefix.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, jest } from "@jest/globals"
import { MemoryAdapter, type MemoryAdapterInstance } from "../../adapters/memory/index.js"
import type { SqlAdapterInstance } from "../../adapters/sql/index.js"
import type { TransactionalAdapter } from "../../lib/core/adapter.js"
import { closeTestDatabase, openTestDatabase, uniquePrefix, type DatabaseName } from "../helpers/databases.js"
import { ALICE, expectError, follow, mailFor, sessionCookie, sessionOf, startSite } from "./support.js"

const MALLORY = "mallory@evil.example"
type Row = Record<string, string | null>
type Counts = { users: number; accounts: number; sessions: number; tokens: number }

interface Engine {
  open(): Promise<void>
  close(): Promise<void>
  reset(): Promise<void>
  adapter(): TransactionalAdapter
  counts(): Promise<Counts>
  /** Every column of every verification-token row, as text. */
  tokenRows(): Promise<Row[]>
}

const asText = (value: unknown): string | null =>
  value === null || value === undefined ? null : Buffer.isBuffer(value) ? value.toString("utf8") : value instanceof Date ? value.toISOString() : String(value)
const textRow = (row: Record<string, unknown>): Row => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, asText(value)]))

function memoryEngine(): Engine {
  let adapter: MemoryAdapterInstance = MemoryAdapter()
  return {
    open: async () => undefined,
    close: async () => undefined,
    reset: async () => {
      adapter = MemoryAdapter()
    },
    adapter: () => adapter,
    counts: async () => {
      const { users, accounts, sessions, tokens } = adapter.store
      return { users: users.size, accounts: accounts.size, sessions: sessions.size, tokens: tokens.size }
    },
    tokenRows: async () => [...adapter.store.tokens.values()].map((token) => textRow({ ...token })),
  }
}

function sqlEngine(name: DatabaseName): Engine {
  const prefix = uniquePrefix(`email_${name.slice(0, 2)}`)
  let adapter: SqlAdapterInstance | undefined
  const db = () => adapter!.db
  const count = async (table: string) =>
    Number((await db().selectFrom(`${prefix}${table}`).select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n)
  return {
    open: async () => {
      adapter = await openTestDatabase(name, prefix)
    },
    close: async () => {
      if (adapter) await closeTestDatabase(adapter, prefix)
    },
    reset: async () => {
      for (const table of ["sessions", "accounts", "verification_tokens", "authenticators", "users"]) await db().deleteFrom(`${prefix}${table}`).execute()
    },
    adapter: () => adapter!,
    counts: async () => ({
      users: await count("users"),
      accounts: await count("accounts"),
      sessions: await count("sessions"),
      tokens: await count("verification_tokens"),
    }),
    tokenRows: async () => (await db().selectFrom(`${prefix}verification_tokens`).selectAll().execute()).map((row) => textRow(row as Record<string, unknown>)),
  }
}

const ENGINES: Array<[string, () => Engine]> = [
  ["memory", memoryEngine],
  ["sqlite", () => sqlEngine("sqlite")],
  ["postgres", () => sqlEngine("postgres")],
  ["mariadb", () => sqlEngine("mariadb")],
]

describe.each(ENGINES)("on %s", (_name, make) => {
  const engine = make()
  beforeAll(() => engine.open(), 30_000)
  afterAll(() => engine.close())
  beforeEach(() => engine.reset())

  const site = () => startSite({ adapter: engine.adapter() })

  it("EMAIL-01: the stored row holds a hash, never the raw token", async () => {
    const s = await site()
    const agent = s.agent()
    const { link } = await mailFor(s, agent, ALICE)
    const raw = link.searchParams.get("token")!
    const rows = await engine.tokenRows()
    expect(rows).toHaveLength(1)
    expect(rows[0]!.identifier).toBe(ALICE)
    expect(JSON.stringify(rows)).not.toContain(raw)
    expect(JSON.stringify(rows).toLowerCase()).not.toContain(raw.toLowerCase())
    const withHash = new URL(link)
    withHash.searchParams.set("token", rows[0]!.token!)
    expectError(await follow(s.agent(), withHash), "error", "Verification")
    expect(sessionCookie(await follow(agent, link))).toBeDefined()
    expect(await engine.counts()).toEqual({ users: 1, accounts: 1, sessions: 1, tokens: 0 })
  })

  it("EMAIL-03: another address's token, a missing or doubled parameter, an empty token: all refused; alice's link still works", async () => {
    const s = await site()
    const mallory = s.agent()
    const tM = (await mailFor(s, mallory, MALLORY)).link.searchParams.get("token")!
    const alice = s.agent()
    const { link: aLink } = await mailFor(s, alice, ALICE)
    const tA = aLink.searchParams.get("token")!
    const a = encodeURIComponent(ALICE)
    const m = encodeURIComponent(MALLORY)
    const attempts = [
      `token=${tM}&email=${a}`,
      `token=${tA}&email=${m}`,
      `token=${tM}`,
      `email=${a}`,
      `token=${tM}&email=${m}&email=${a}`,
      `token=${tM}&email=${a}&email=${m}`,
      `token=${tM}&token=${tA}&email=${a}`,
      `token=&email=${a}`,
      `token=${tA.toUpperCase()}&email=${a}`,
      `token=${tA}%20&email=${a}`,
    ]
    for (const query of attempts) {
      const response = await follow(mallory, `${s.url}/auth/callback/nodemailer?${query}`)
      expectError(response, "error", "Verification")
      expect(sessionCookie(response)).toBeUndefined()
    }
    expect(await sessionOf(mallory)).toBeNull()
    expect(await engine.counts()).toEqual({ users: 0, accounts: 0, sessions: 0, tokens: 2 })
    const upper = new URL(aLink)
    upper.searchParams.set("email", "ALICE@Example.com")
    expect(sessionCookie(await follow(alice, upper))).toBeDefined()
    expect((await sessionOf(alice))?.user?.email).toBe(ALICE)
    expect(await engine.counts()).toEqual({ users: 1, accounts: 1, sessions: 1, tokens: 1 })
  })

  it("EMAIL-02: a link followed at its expiry is refused and its row removed; one followed a second before works", async () => {
    const now = Date.now()
    const clock = jest.spyOn(Date, "now").mockReturnValue(now)
    const s = await startSite({ adapter: engine.adapter(), provider: { maxAge: 60 } })
    const late = s.agent()
    const { link: expired } = await mailFor(s, late, "late@example.com")
    const early = s.agent()
    const { link: valid } = await mailFor(s, early, ALICE)
    clock.mockReturnValue(now + 60_000)
    expectError(await follow(late, expired), "error", "Verification")
    expect(await engine.counts()).toEqual({ users: 0, accounts: 0, sessions: 0, tokens: 1 })
    clock.mockReturnValue(now + 59_000)
    expect(sessionCookie(await follow(early, valid))).toBeDefined()
    expect(await engine.counts()).toEqual({ users: 1, accounts: 1, sessions: 1, tokens: 0 })
  })

  it("EMAIL-04: 20 browsers follow one link at once; exactly one is signed in", async () => {
    const s = await site()
    const { link } = await mailFor(s, s.agent(), ALICE)
    const agents = Array.from({ length: 20 }, () => s.agent())
    const responses = await Promise.all(agents.map((agent) => follow(agent, link)))
    for (const response of responses) expect(response.status).toBe(302)
    const winners = responses.filter((response) => sessionCookie(response) !== undefined)
    expect(winners).toHaveLength(1)
    const losers = responses.filter((response) => sessionCookie(response) === undefined)
    for (const response of losers) expectError(response, "error", "Verification")
    expect(losers).toHaveLength(19)
    expect(await engine.counts()).toEqual({ users: 1, accounts: 1, sessions: 1, tokens: 0 })
    const signedIn = await Promise.all(agents.map(async (agent) => (await sessionOf(agent))?.user?.email ?? null))
    expect(signedIn.filter((email) => email === ALICE)).toHaveLength(1)
  })

  it("two links for one new address followed at the same moment: both sign in, to one user with its account", async () => {
    // Both callbacks are held after looking the address up (a spy that calls through), so both
    // find no user and both try to create it: the race a real pair of clicks can hit.
    const adapter = engine.adapter()
    const lookUp = adapter.getUserByEmail!.bind(adapter)
    let held: Array<() => void> | undefined
    jest.spyOn(adapter, "getUserByEmail").mockImplementation(async (email: string) => {
      const found = await lookUp(email)
      if (held) {
        const queue = held
        await new Promise<void>((resume) => {
          queue.push(resume)
          if (queue.length === 2) queue.splice(0).forEach((go) => go())
        })
      }
      return found
    })
    const s = await site()
    const first = s.agent()
    const second = s.agent()
    const { link: one } = await mailFor(s, first, "new@example.com")
    const { link: two } = await mailFor(s, second, "new@example.com")
    held = []
    const responses = await Promise.all([follow(first, one), follow(second, two)])
    held = undefined
    expect(await engine.counts()).toEqual({ users: 1, accounts: 1, sessions: 2, tokens: 0 })
    for (const response of responses) expect(sessionCookie(response)).toBeDefined()
    expect((await sessionOf(first))?.user?.email).toBe("new@example.com")
    expect((await sessionOf(second))?.user?.email).toBe("new@example.com")
  })
})

describe("memory adapter: a failed transaction leaves other requests' writes alone", () => {
  it("a link used while a concurrent first sign-in fails stays used, and that sign-in stays valid", async () => {
    const NEW = "new@example.com"
    const adapter = MemoryAdapter()
    const create = adapter.createUser.bind(adapter)
    // Two first sign-ins of NEW are held inside their transactions (a spy that calls through)
    // while alice follows her link; then both go on, and the second one fails (NEW exists).
    let armed = false
    let open!: () => void
    const gate = new Promise<void>((resolve) => (open = resolve))
    let arrived = 0
    let bothHeld!: () => void
    const held = new Promise<void>((resolve) => (bothHeld = resolve))
    jest.spyOn(adapter, "createUser").mockImplementation(async (user) => {
      if (armed && user.email === NEW) {
        if (++arrived === 2) bothHeld()
        await gate
      }
      return create(user)
    })
    const s = await startSite({ adapter })
    const alice = s.agent()
    const { link: aliceLink } = await mailFor(s, alice, ALICE)
    const first = s.agent()
    const second = s.agent()
    const { link: one } = await mailFor(s, first, NEW)
    const { link: two } = await mailFor(s, second, NEW)
    armed = true
    const racing = Promise.all([follow(first, one), follow(second, two)])
    await held
    expect(sessionCookie(await follow(alice, aliceLink))).toBeDefined()
    open()
    await racing
    const replay = await follow(s.agent(), aliceLink)
    expectError(replay, "error", "Verification")
    expect(sessionCookie(replay)).toBeUndefined()
    expect((await sessionOf(alice))?.user?.email).toBe(ALICE)
    const emails = [...adapter.store.users.values()].map((user) => user.email).sort()
    expect(emails).toEqual([ALICE, NEW])
    expect(adapter.store.accounts.size).toBe(2)
  })
})
