/**
 * Credentials provider, CRED-01 and CRED-06 (SECURITY-CATALOG.md §9). CRED-02 (timing) belongs to the
 * resilience script (`__tests__/resilience/`); CRED-03 … CRED-05 (rate limiting) are in rate-limit.test.ts.
 */
import { beforeAll, beforeEach, describe, expect, it } from "@jest/globals"
import type { Express } from "express"
import Credentials from "../../lib/providers/credentials.js"
import type { Res } from "./fixtures.js"
import { AUTH_URL, BASE, USERS, buildApp, call, csrfPair, preserveEnv, sessionCookie, setCookies, type CsrfPair } from "./fixtures.js"

preserveEnv("AUTH_URL")

const received: Array<Record<string, unknown>> = []
const logged: string[] = []
let app: Express
let nullApp: Express
let throwingApp: Express
let pair: CsrfPair

const fields = { username: { label: "Username" }, password: { label: "Password", type: "password" } }

beforeAll(async () => {
  app = buildApp(AUTH_URL, {
    providers: [
      Credentials({
        credentials: fields,
        async authorize(credentials) {
          received.push({ ...credentials })
          const user = typeof credentials.username === "string" ? USERS[credentials.username] : undefined
          if (!user || user.password !== credentials.password) return null
          return { id: user.id, name: user.name, email: user.email }
        },
      }),
    ],
  }).app
  nullApp = buildApp(AUTH_URL, { providers: [Credentials({ credentials: fields, authorize: async () => null })] }).app
  throwingApp = buildApp(AUTH_URL, {
    logger: { error: (error: Error) => void logged.push(`${error.message} ${String((error.cause as { err?: Error })?.err?.message)}`) },
    providers: [
      Credentials({
        credentials: fields,
        authorize: async () => {
          throw new Error("User alice not found in table users")
        },
      }),
    ],
  }).app
  pair = await csrfPair(app)
})
beforeEach(() => {
  received.length = 0
})

const post = (target: Express, body: Record<string, string | string[]> | string, json = false, accept?: string) =>
  call(target, "POST", "/auth/callback/credentials", json ? { cookie: pair.cookie, json: body, accept } : { cookie: pair.cookie, form: body, accept })

/**
 * The answer, less the identifier the person typed, which comes back to the sign-in page as
 * `login_hint` (issue #26) whether or not there is such an account: it tells nothing.
 */
function outcome(res: Res) {
  const unhinted = (text: unknown) => (typeof text === "string" ? text.replace(/(&|\\u0026)login_hint=[^&"\\]*/g, "") : text)
  return JSON.stringify([res.status, unhinted(res.headers.location), res.headers["set-cookie"] ?? null, unhinted(res.text), res.headers["content-type"] ?? null])
}

describe("CRED-01 no enumeration through the answer", () => {
  it("wrong password, unknown user, empty fields and a null authorize are byte-identical", async () => {
    const answers = [
      await post(app, { csrfToken: pair.token, username: "alice", password: "wrong" }),
      await post(app, { csrfToken: pair.token, username: "nobody", password: "wrong" }),
      await post(app, { csrfToken: pair.token, username: "", password: "" }),
      await post(nullApp, { csrfToken: pair.token, username: "alice", password: "correct-horse" }),
    ]
    expect(new Set(answers.map(outcome)).size).toBe(1)
    const [first] = answers
    expect(first!.status).toBe(302)
    const location = new URL(String(first!.headers.location))
    expect(`${location.origin}${location.pathname}`).toBe(`${BASE}/auth/signin`)
    expect(location.searchParams.get("error")).toBe("CredentialsSignin")
    expect(location.searchParams.get("code")).toBe("credentials")
    expect(sessionCookie(first!)).toBe("")
    expect(answers.map((res) => new URL(String(res.headers.location)).searchParams.get("login_hint"))).toEqual(["alice", "nobody", null, "alice"])
    const followed = await Promise.all(answers.map((res) => {
      const target = new URL(String(res.headers.location))
      target.searchParams.delete("login_hint")
      return call(app, "GET", `${target.pathname}${target.search}`, { cookie: pair.cookie, accept: "text/html" })
    }))
    expect(new Set(followed.map((res) => res.text)).size).toBe(1)
    expect(followed[0]!.text).toContain("Those details did not match")
  })

  it("JSON clients get identical 401 bodies", async () => {
    const accept = "application/json"
    const answers = [
      await post(app, { csrfToken: pair.token, username: "alice", password: "wrong" }, true, accept),
      await post(app, { csrfToken: pair.token, username: "nobody", password: "wrong" }, true, accept),
      await post(nullApp, { csrfToken: pair.token, username: "alice", password: "correct-horse" }, true, accept),
    ]
    expect(new Set(answers.map(outcome)).size).toBe(1)
    expect(answers[0]!.status).toBe(401)
    expect(answers[0]!.body.error.type).toBe("CredentialsSignin")
  })

  it("e: an authorize that throws a revealing message shows only a generic type; the message is logged", async () => {
    logged.length = 0
    const res = await post(throwingApp, { csrfToken: pair.token, username: "alice", password: "x" })
    expect(res.status).toBe(302)
    expect(res.headers.location).toBe(`${BASE}/auth/error?error=Configuration`)
    const page = await call(throwingApp, "GET", "/auth/error?error=Configuration", { accept: "text/html" })
    const json = await post(throwingApp, { csrfToken: pair.token, username: "alice", password: "x" }, true, "application/json")
    expect(json.body.error.type).toBe("Configuration")
    for (const answer of [res, page, json]) expect(JSON.stringify(answer.headers) + answer.text).not.toMatch(/not found|table users/)
    expect(logged.some((line) => line.includes("User alice not found in table users"))).toBe(true)
  })
})

describe("CRED-06 credential fields arrive as exact strings", () => {
  function expectOnlyStrings(): void {
    for (const credentials of received) {
      expect(Object.getPrototypeOf(credentials)).toBe(Object.prototype)
      for (const value of Object.values(credentials)) expect(typeof value).toBe("string")
      expect(credentials).not.toHaveProperty("csrfToken")
    }
  }

  it("bracket keys stay literal strings and never sign anyone in", async () => {
    const bodies: Array<Record<string, string | string[]>> = [
      { csrfToken: pair.token, "username[$ne]": "nobody", "password[$ne]": "x" },
      { csrfToken: pair.token, "username[]": ["alice", "bob"], password: "x" },
    ]
    for (const body of bodies) {
      const res = await post(app, body)
      expect(res.status).toBe(302)
      expect(sessionCookie(res)).toBe("")
    }
    expect(received).toEqual([{ "username[$ne]": "nobody", "password[$ne]": "x" }, { password: "x" }])
    expectOnlyStrings()
  })

  it("a declared field given as an array or an object is refused with 400 before authorize", async () => {
    const answers = [
      await post(app, { csrfToken: pair.token, username: ["alice", "bob"], password: "correct-horse" }),
      await post(app, { csrfToken: pair.token, username: { $gt: "" }, password: { $gt: "" } } as never, true),
      await post(app, { csrfToken: pair.token, username: "alice", password: ["correct-horse"] } as never, true),
      await post(app, { csrfToken: pair.token, username: "alice", password: 123 } as never, true),
    ]
    for (const res of answers) {
      expect(res.status).toBe(400)
      expect(res.body.error.type).toBe("InvalidRequest")
      expect(sessionCookie(res)).toBe("")
    }
    expect(received).toEqual([])
  })

  it("prototype keys reach neither authorize nor any prototype", async () => {
    const json = `{"csrfToken":"${pair.token}","username":"alice","password":"correct-horse","__proto__":{"admin":true},"constructor":{"prototype":{"admin":true}}}`
    const res = await call(app, "POST", "/auth/callback/credentials", { cookie: pair.cookie, json })
    expect(res.status).toBe(302)
    expect(received).toEqual([{ username: "alice", password: "correct-horse" }])
    expectOnlyStrings()
    expect(({} as Record<string, unknown>).admin).toBeUndefined()
    const form = await post(app, `csrfToken=${pair.token}&username=alice&password=correct-horse&__proto__[admin]=1&__proto__=x`)
    expect(form.status).toBe(302)
    expect(({} as Record<string, unknown>).admin).toBeUndefined()
  })

  it("a 128-character Unicode password arrives byte for byte (no trim, NFKC or truncation)", async () => {
    const password = `\u00a0p\u0000a\u0301\ufb01Å\u212b${"é".repeat(40)}${"\u0308".repeat(40)}${"x".repeat(38)}  `
    expect(password.length).toBe(128)
    await post(app, { csrfToken: pair.token, username: "alice", password })
    await post(app, { csrfToken: pair.token, username: "alice", password }, true)
    expect(received.map((c) => c.password)).toEqual([password, password])
    expect(received.map((c) => Buffer.from(String(c.password)).equals(Buffer.from(password)))).toEqual([true, true])
  })

  it("a 2 MB password is refused with 413 before authorize runs", async () => {
    for (const json of [false, true]) {
      const res = await post(app, { csrfToken: pair.token, username: "alice", password: "p".repeat(2 * 1024 * 1024) }, json)
      expect(res.status).toBe(413)
      expect(res.body.error.type).toBe("PayloadTooLarge")
      expect(setCookies(res).some((c) => c.name.includes("session-token"))).toBe(false)
    }
    expect(received).toEqual([])
  })
})
