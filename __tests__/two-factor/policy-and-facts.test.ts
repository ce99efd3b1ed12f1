/**
 * Issue #16, the rules around the challenge: step-up (`requireAuth(config, { maxAge })`), the
 * session facts (`auth.amr`, `auth.authTime`, in the callbacks too), the `required` policy, the
 * events, the storage rules (the secret sealed at rest and still readable after a secret rotation,
 * recovery codes stored hashed, MissingAdapterMethods at start-up), on SQLite with Redis.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from "@jest/globals"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { resolveConfig } from "../../lib/core/config/resolve.js"
import { requireAuth } from "../../lib/index.js"
import { MissingAdapterMethods } from "../../lib/errors.js"
import type { JWT, Session } from "../../lib/types.js"
import { OTHER_SECRET, SECRET, request } from "../helpers/app.js"
import { codeAt } from "../../lib/two-factor/totp.js"
import { SETUPS, awayFromStepEdge, codeFor, enrolledUser, freshName, signIn, submitCode, twoFactorApp } from "./support.js"

const sqlite = SETUPS[0]!
beforeAll(() => sqlite.open(), 30_000)
afterAll(() => sqlite.close())
afterEach(() => {
  jest.restoreAllMocks()
})

describe("step-up: requireAuth(config, { maxAge })", () => {
  it("a sign-in older than maxAge is sent to sign in again and back; a fresh one passes", async () => {
    const app = twoFactorApp(sqlite.config())
    const agent = request.agent(app)
    await signIn(agent, freshName("step"))
    await agent.get("/billing").set("Accept", "application/json").expect(200)
    const later = Date.now() + 6 * 60_000
    jest.spyOn(Date, "now").mockReturnValue(later)
    const page = await agent.get("/billing").set("Accept", "text/html").expect(302)
    const target = new URL(page.headers.location as string)
    expect(target.pathname).toBe("/auth/signin")
    expect(target.searchParams.get("error")).toBe("RecentSignInRequired")
    expect(new URL(target.searchParams.get("callbackUrl") as string).pathname).toBe("/billing")
    const api = await agent.get("/billing").set("Accept", "application/json").expect(403)
    expect(api.body.error.type).toBe("RecentSignInRequired")
    // Routes without maxAge still let the session in.
    await agent.get("/api/me").set("Accept", "application/json").expect(200)
  })

  it("an enrolled user steps up by signing in again with the second factor; authTime moves", async () => {
    const app = twoFactorApp(sqlite.config())
    const { username, secret } = await enrolledUser(app)
    const agent = request.agent(app)
    await signIn(agent, username)
    await awayFromStepEdge()
    await submitCode(agent, codeFor(secret, -1), 302)
    const before = (await agent.get("/billing").set("Accept", "application/json").expect(200)).body.auth as Session
    jest.spyOn(Date, "now").mockReturnValue(Date.now() + 6 * 60_000)
    await agent.get("/billing").set("Accept", "application/json").expect(403)
    // Signing in again is pending until the second factor, then /billing opens.
    const first = await signIn(agent, username)
    expect(first.headers.location).toMatch(/\/auth\/two-factor$/)
    await agent.get("/billing").set("Accept", "application/json").expect(401)
    await submitCode(agent, codeAt(secret, Date.now()), 302)
    const after = (await agent.get("/billing").set("Accept", "application/json").expect(200)).body.auth as Session
    expect(after.authTime).toBeGreaterThan(before.authTime as number)
  })

  it("maxAge must be a number of seconds", () => {
    expect(() => requireAuth(sqlite.config(), { maxAge: -1 })).toThrow(/maxAge/)
    expect(() => requireAuth(sqlite.config(), { maxAge: "5m" as unknown as number })).toThrow(/maxAge/)
  })
})

describe("session facts: auth.amr and auth.authTime", () => {
  it("recorded at sign-in, readable by the app and in the jwt and session callbacks", async () => {
    const seen: { token?: JWT; session?: Session } = {}
    const config = sqlite.config({
      callbacks: {
        jwt: ({ token }) => {
          seen.token ??= { ...token }
          return token
        },
        session: ({ session }) => {
          seen.session = session
          return session
        },
      },
    })
    const app = twoFactorApp(config)
    const plain = request.agent(app)
    await signIn(plain, freshName("facts"))
    const me = (await plain.get("/api/me").set("Accept", "application/json").expect(200)).body as Session
    expect(me.amr).toEqual(["pwd"])
    expect(Math.abs((me.authTime as number) - Date.now() / 1000)).toBeLessThan(60)
    expect(seen.token?.amr).toEqual(["pwd"])
    expect(seen.session?.amr).toEqual(["pwd"])
  })
})

describe("the twoFactor option", () => {
  it.each([
    [{ issuer: "" }, /twoFactor\.issuer/],
    [{ issuer: "a:b" }, /twoFactor\.issuer/],
    [{ issuer: "Ok", required: "yes" }, /twoFactor\.required/],
    ["on", /twoFactor must be an object/],
  ])("%p is refused at start-up with InvalidOption naming the option", (option, message) => {
    expect(() => resolveConfig(sqlite.config({ twoFactor: option as never }), {})).toThrow(message)
  })

  it("without an adapter it is refused at start-up (MissingAdapter)", () => {
    expect(() => resolveConfig(sqlite.config({ adapter: undefined }), {})).toThrow(/twoFactor needs an adapter/)
  })

  it("off, the two-factor actions do not exist (404 UnknownAction)", async () => {
    const app = twoFactorApp(sqlite.config({ twoFactor: undefined }))
    const response = await request(app).get("/auth/two-factor/setup").set("Accept", "application/json").expect(404)
    expect(response.body.error.type).toBe("UnknownAction")
  })
})

describe("policy: twoFactor.required", () => {
  it("a user the policy picks who is not enrolled goes to enrolment right after the first factor", async () => {
    const app = twoFactorApp(sqlite.config({ twoFactor: { issuer: "Test", required: (user) => Boolean(user.name?.startsWith("must")) } }))
    const must = await signIn(request.agent(app), freshName("must"))
    const target = new URL(must.headers.location as string)
    expect(target.pathname).toBe("/auth/two-factor/setup")
    expect(target.searchParams.get("callbackUrl")).toMatch(/\/api\/me$/)
    const free = await signIn(request.agent(app), freshName("free"))
    expect(free.headers.location).toMatch(/\/api\/me$/)
  })
})

describe("events", () => {
  it("twoFactorEnabled, and twoFactorChallenge with each outcome", async () => {
    const events: string[] = []
    const app = twoFactorApp(
      sqlite.config({
        events: {
          twoFactorEnabled: ({ userId }) => void events.push(`enabled:${userId}`),
          twoFactorChallenge: ({ method, outcome }) => void events.push(`${method}:${outcome}`),
        },
      }),
    )
    const { username, secret, codes } = await enrolledUser(app)
    expect(events).toEqual([`enabled:u-${username}`])
    const agent = request.agent(app)
    await signIn(agent, username)
    await submitCode(agent, "000000", 400)
    await submitCode(agent, codes[0] as string, 302)
    const again = request.agent(app)
    await signIn(again, username)
    await submitCode(again, codes[0] as string, 400)
    await awayFromStepEdge()
    await submitCode(again, codeFor(secret, -1), 302)
    expect(events.slice(1)).toEqual(["totp:TwoFactorCodeInvalid", "recovery:success", "recovery:RecoveryCodeUsed", "totp:success"])
  })
})

describe("storage", () => {
  it("the secret is sealed at rest and recovery codes are hashed; after a secret rotation the stored secret still works", async () => {
    const app = twoFactorApp(sqlite.config())
    const { username, secret, codes } = await enrolledUser(app)
    const { adapter, prefix } = sqlite.sql!()
    const row = await adapter.db.selectFrom(`${prefix}two_factor`).selectAll().where("user_id", "=", `u-${username}`).executeTakeFirstOrThrow()
    expect(String(row.secret)).not.toContain(secret)
    expect(String(row.secret).split(".")).toHaveLength(5)
    const stored = await adapter.db.selectFrom(`${prefix}recovery_codes`).selectAll().where("user_id", "=", `u-${username}`).execute()
    expect(stored).toHaveLength(10)
    const text = JSON.stringify(stored)
    for (const code of codes) expect(text).not.toContain(code.replace(/-/g, ""))

    const rotated = twoFactorApp(sqlite.config({ secret: [OTHER_SECRET, SECRET] }))
    const agent = request.agent(rotated)
    await signIn(agent, username)
    await awayFromStepEdge()
    await submitCode(agent, codeFor(secret, 1), 302)
    await agent.get("/api/me").set("Accept", "application/json").expect(200)
  })

  it("twoFactor with an adapter that lacks the two-factor methods fails at start-up with MissingAdapterMethods", () => {
    const { getTwoFactor: _omitted, ...partial } = MemoryAdapter()
    expect(() => resolveConfig(sqlite.config({ adapter: partial }), {})).toThrow(MissingAdapterMethods)
    expect(() => resolveConfig(sqlite.config({ adapter: partial }), {})).toThrow(/getTwoFactor/)
  })
})
