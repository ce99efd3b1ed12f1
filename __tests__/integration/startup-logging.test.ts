/**
 * Issue #26, logs a person notices: what the diagnostics page finds in the traffic is logged once
 * as a warning, with its details and fix (also in production, where the page is off); a router
 * mounted away from `basePath` says both paths once; a wrong password is not an error; a
 * configuration state (no adapter for the account page, no secret) is logged once, without a stack.
 */
import { afterEach, describe, expect, it, jest } from "@jest/globals"
import { Writable } from "node:stream"
import express from "express"
import pino from "pino"
import { authRouter } from "../../lib/index.js"
import { createLogger } from "../../lib/core/logger.js"
import { Verification } from "../../lib/core/named-errors.js"
import { EmailNotVerified } from "../../lib/password/errors.js"
import type { AuthConfig } from "../../lib/types.js"
import { csrfToken, makeApp, request, SECRET, testConfig, type Agent } from "../helpers/app.js"

function spyLogger() {
  return {
    warn: jest.fn<(code: string, detail?: string) => void>(),
    error: jest.fn<(error: Error) => void>(),
    debug: jest.fn<(message: string, metadata?: unknown) => void>(),
  }
}

const warningsOf = (logger: ReturnType<typeof spyLogger>, code: string) => logger.warn.mock.calls.filter(([logged]) => logged === code)

const env = { ...process.env }
afterEach(() => {
  process.env = { ...env }
  jest.restoreAllMocks()
})

describe("what /auth/diagnostics finds is logged once as a warning", () => {
  it("X-Forwarded-Proto from a proxy Express does not trust: one warning with the header, Express's setting and the fix, for any number of requests", async () => {
    const logger = spyLogger()
    const app = makeApp(testConfig({ logger }))
    for (let i = 0; i < 4; i++) await request(app).get("/auth/session").set("X-Forwarded-Proto", "https").expect(200)
    const calls = warningsOf(logger, "forwarded-not-trusted-by-express")
    expect(calls).toHaveLength(1)
    const detail = String(calls[0]![1])
    expect(detail).toContain("X-Forwarded-Proto: https")
    expect(detail).toContain('"trust proxy" is false (not set)')
    expect(detail).toContain('app.set("trust proxy", 1)')
  })

  it("in production, where the page itself answers 404, the finding is logged all the same", async () => {
    process.env.NODE_ENV = "production"
    process.env.AUTH_URL = "http://app.example"
    const logger = spyLogger()
    const app = makeApp(testConfig({ logger }))
    await request(app).get("/auth/diagnostics").set("Host", "app.example").expect(404)
    expect(logger.warn).not.toHaveBeenCalled()
    // The site opened on another address than AUTH_URL's: cookies set there are not sent back.
    await request(app).get("/auth/session").set("Host", "www.app.example").expect(200)
    await request(app).get("/auth/session").set("Host", "www.app.example").expect(200)
    const calls = warningsOf(logger, "auth-url-origin-mismatch")
    expect(calls).toHaveLength(1)
    expect(String(calls[0]![1])).toContain("AUTH_URL's origin http://app.example differs from the origin this request was made on, http://www.app.example")
  })

  it("a well-configured app logs no finding", async () => {
    const logger = spyLogger()
    const app = makeApp(testConfig({ logger }))
    await request(app).get("/auth/session").expect(200)
    await request(app).get("/auth/providers").expect(200)
    expect(logger.warn).not.toHaveBeenCalled()
  })

  it("the default console logger prints the code, the sentence and the details on one line at logLevel warn", async () => {
    const warn = jest.spyOn(console, "warn").mockImplementation(() => undefined)
    const app = makeApp(testConfig({ logLevel: "warn" }))
    await request(app).get("/auth/session").set("X-Forwarded-Host", "public.example").expect(200)
    await request(app).get("/auth/session").set("X-Forwarded-Host", "public.example").expect(200)
    const lines = warn.mock.calls.map(([line]) => String(line)).filter((line) => line.includes("[forwarded-not-trusted-by-express]"))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^\[gatehouse\]\[warning\]\[forwarded-not-trusted-by-express\] Requests carry .* This request carries X-Forwarded-Host: public\.example/)
  })
})

describe("a finding through pino", () => {
  it("is one warn entry with the code, the details as a field and the sentence with them as its message", async () => {
    const seen: Array<Record<string, unknown>> = []
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split("\n")) if (line.trim()) seen.push(JSON.parse(line) as Record<string, unknown>)
        done()
      },
    })
    const app = makeApp(testConfig({ logger: pino({ level: "debug" }, stream) }), { mount: "/api/auth" })
    await request(app).get("/api/auth/session").expect(200)
    await request(app).get("/api/auth/session").expect(200)
    const entries = seen.filter((entry) => entry.code === "basepath-mount-mismatch")
    expect(entries).toHaveLength(1)
    expect(entries[0]).toMatchObject({ level: 40, component: "gatehouse", detail: expect.stringContaining("mounted at /api/auth") })
    expect(String(entries[0]!.msg)).toContain("mounted at /api/auth")
  })
})

describe("a router mounted at a path other than basePath", () => {
  it("basePath set: one warning naming the mount path and basePath, on the first request it serves", async () => {
    const logger = spyLogger()
    const app = makeApp(testConfig({ logger, basePath: "/auth" }), { mount: "/api/auth" })
    await request(app).get("/api/auth/providers").expect(200)
    await request(app).get("/api/auth/session").expect(200)
    const calls = warningsOf(logger, "basepath-mount-mismatch")
    expect(calls).toHaveLength(1)
    expect(String(calls[0]![1])).toContain("mounted at /api/auth but basePath is /auth")
  })

  it("basePath not set: the router's links follow the mount path, and one warning names both paths and the option to set", async () => {
    const logger = spyLogger()
    const app = makeApp(testConfig({ logger }), { mount: "/api/auth" })
    const providers = await request(app).get("/api/auth/providers").expect(200)
    expect(providers.body[0].signinUrl).toMatch(/\/api\/auth\/signin\/credentials$/)
    await request(app).get("/api/auth/session").expect(200)
    const calls = warningsOf(logger, "basepath-mount-mismatch")
    expect(calls).toHaveLength(1)
    expect(String(calls[0]![1])).toContain("mounted at /api/auth but basePath is the default /auth")
    expect(String(calls[0]![1])).toContain('basePath: "/api/auth"')
  })

  it("mounted where basePath says: no warning", async () => {
    const logger = spyLogger()
    const app = makeApp(testConfig({ logger, basePath: "/api/auth" }), { mount: "/api/auth" })
    await request(app).get("/api/auth/providers").expect(200)
    expect(warningsOf(logger, "basepath-mount-mismatch")).toEqual([])
  })
})

async function wrongPassword(config: AuthConfig) {
  const agent = request.agent(makeApp(config)) as unknown as Agent
  const token = await csrfToken(agent)
  await agent.post("/auth/callback/credentials").type("form").send({ csrfToken: token, username: "alice", password: "not-her-password" }).expect(302)
}

describe("a wrong password is not an error", () => {
  it("a logger's error is not called; its debug gets the type and code, without the password", async () => {
    const logger = spyLogger()
    await wrongPassword(testConfig({ logger }))
    expect(logger.error).not.toHaveBeenCalled()
    const line = logger.debug.mock.calls.find(([message]) => message.startsWith("CredentialsSignin: "))
    expect(line?.[1]).toEqual({ code: "credentials" })
    expect(JSON.stringify(logger.debug.mock.calls)).not.toContain("not-her-password")
  })

  it("the console prints nothing at the default level, and a debug line without a stack at verbose", async () => {
    const error = jest.spyOn(console, "error").mockImplementation(() => undefined)
    const debug = jest.spyOn(console, "debug").mockImplementation(() => undefined)
    await wrongPassword(testConfig({ logLevel: undefined }))
    expect(error).not.toHaveBeenCalled()
    await wrongPassword(testConfig({ logLevel: "verbose" }))
    expect(error).not.toHaveBeenCalled()
    const lines = debug.mock.calls.map((call) => call.map(String).join(" ")).filter((line) => line.includes("CredentialsSignin"))
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^\[gatehouse\]\[debug\]: CredentialsSignin: /)
    expect(lines[0]).not.toMatch(/\n\s+at /)
  })
})

describe("other everyday refusals are not errors either", () => {
  it.each([
    ["a link or code already used or expired", new Verification("The sign-in link was already used")],
    ["a password sign-in before the address is confirmed", new EmailNotVerified("The address is not confirmed yet")],
  ])("%s: the logger's error is not called, its debug gets the type", (_case, refusal) => {
    const logger = spyLogger()
    createLogger("error", logger).error(refusal)
    expect(logger.error).not.toHaveBeenCalled()
    expect(logger.debug.mock.calls.some(([message]) => message.startsWith(`${refusal.type}: `))).toBe(true)
  })
})

describe("a configuration state is logged once, without a stack", () => {
  it("the account page without an adapter: three requests, one error line and no stack", async () => {
    const error = jest.spyOn(console, "error").mockImplementation(() => undefined)
    const app = makeApp(testConfig({ logLevel: "error" }))
    for (let i = 0; i < 3; i++) await request(app).get("/auth/account").set("Accept", "application/json").expect(501)
    const printed = error.mock.calls.map((call) => call.map(String).join(" "))
    expect(printed).toHaveLength(1)
    expect(printed[0]).toMatch(/^\[gatehouse\]\[error\] AccountPageUnavailable: /)
  })

  it("a lazy configuration without a secret in production: every request answers 500, MissingSecret is logged once", async () => {
    process.env.NODE_ENV = "production"
    delete process.env.AUTH_SECRET
    const error = jest.spyOn(console, "error").mockImplementation(() => undefined)
    const app = express()
    app.use("/auth", authRouter(() => ({ providers: [], trustHost: true, basePath: "/auth" })))
    for (let i = 0; i < 3; i++) expect((await request(app).get("/auth/session").expect(500)).body.error.type).toBe("Configuration")
    const printed = error.mock.calls.map((call) => call.map(String).join(" "))
    expect(printed.filter((line) => line.includes("MissingSecret"))).toHaveLength(1)
    expect(printed.some((line) => line.includes("[stack]"))).toBe(false)
  })

  it("a static configuration with a short secret in production throws at start-up, before any request", () => {
    process.env.NODE_ENV = "production"
    expect(() => authRouter({ providers: [], secret: SECRET.slice(0, 16), trustHost: true })).toThrow(expect.objectContaining({ type: "MissingSecret" }))
  })
})
