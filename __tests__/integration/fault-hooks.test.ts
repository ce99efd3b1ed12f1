/**
 * FAULT-05 — application code that throws or rejects inside Gatehouse's pipeline, the cases the
 * callbacks/events/credentials suites do not already cover: `authorize` throwing a string or
 * `null` (non-Error values), `callbacks.signIn` throwing on a credentials sign-in, and
 * `events.createUser` / `events.linkAccount` returning rejected promises during a first sign-in.
 * In every case the outcome is a named one (never a stack), the failure is logged, and no
 * rejection escapes unhandled (Node would end the process on one).
 */
import { afterAll, beforeAll, describe, expect, jest, test } from "@jest/globals"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { EventError } from "../../lib/errors.js"
import type { AuthConfig } from "../../lib/types.js"
import { credentials, makeApp, testConfig } from "../helpers/app.js"
import { ORIGIN, agentFor, csrfPair, localPath, sessionCookies, signedIn, spyLogger } from "./support.js"
import request from "supertest"

const escaped: unknown[] = []
const onEscape = (reason: unknown) => escaped.push(reason)
beforeAll(() => {
  process.on("unhandledRejection", onEscape)
})
afterAll(() => {
  process.off("unhandledRejection", onEscape)
})

/** Lets pending promise jobs and timers run, so an unhandled rejection would have been reported. */
const settle = () => new Promise((resume) => setTimeout(resume, 50))

function appWith(overrides: Partial<AuthConfig>) {
  const logger = spyLogger()
  return { app: makeApp(testConfig({ logger, ...overrides })), logger }
}

async function postCredentials(app: ReturnType<typeof makeApp>, accept?: string) {
  const csrf = await csrfPair(app)
  const test = request(app).post("/auth/callback/credentials").set("Host", "app.test").set("Cookie", csrf.cookie).type("form")
  return (accept ? test.set("Accept", accept) : test).send({ csrfToken: csrf.token, username: "alice", password: "correct-horse" })
}

describe("authorize throwing something that is not an Error", () => {
  test.each<[string, unknown]>([
    ['the string "x"', "x"],
    ["null", null],
    ["undefined", undefined],
  ])("%s: a named Configuration outcome (browser: the error page; JSON: the type), logged, no session, no stack", async (_name, thrown) => {
    const { app, logger } = appWith({
      providers: [
        credentials({
          authorize: async () => {
            throw thrown
          },
        }),
      ],
    })
    const browser = await postCredentials(app)
    expect(browser.status).toBe(302)
    expect(localPath(browser.headers.location)).toBe("/auth/error?error=Configuration")
    expect(sessionCookies(browser)).toEqual([])
    const json = await postCredentials(app, "application/json")
    expect(json.body.error?.type).toBe("Configuration")
    expect(json.text).not.toMatch(/\bat .+:\d+:\d+|node_modules|TypeError/)
    expect(logger.error).toHaveBeenCalledTimes(2)
    expect((logger.error.mock.calls[0]![0].cause as { err?: unknown }).err).toBe(thrown)
    await request(app).get("/auth/providers").set("Host", "app.test").expect(200)
    await settle()
    expect(escaped).toEqual([])
  })
})

describe("callbacks.signIn throwing on a credentials sign-in", () => {
  test("AccessDenied (the error page, 403), logged, no session", async () => {
    const failure = new Error("policy service down")
    const { app, logger } = appWith({
      callbacks: {
        signIn: () => {
          throw failure
        },
      },
    })
    const browser = await postCredentials(app)
    expect(localPath(browser.headers.location)).toBe("/auth/error?error=AccessDenied")
    expect(sessionCookies(browser)).toEqual([])
    const page = await request(app).get("/auth/error?error=AccessDenied").set("Host", "app.test").set("Accept", "text/html")
    expect(page.status).toBe(403)
    expect(logger.error).toHaveBeenCalled()
    await settle()
    expect(escaped).toEqual([])
  })
})

describe("events that reject during a first sign-in (with an adapter)", () => {
  test("createUser and linkAccount rejecting: the sign-in completes, both logged as EventError, nothing escapes", async () => {
    const adapter = MemoryAdapter()
    const createUser = jest.fn(() => Promise.reject(new Error("audit store rejected createUser")))
    const linkAccount = jest.fn(async () => {
      throw new Error("audit store rejected linkAccount")
    })
    const { app, logger } = appWith({ adapter, events: { createUser, linkAccount } })
    const agent = agentFor(app)
    const response = await signedIn(agent, "alice", { callbackUrl: "/home" })
    expect(response.headers.location).toBe(`${ORIGIN}/home`)
    expect(createUser).toHaveBeenCalledTimes(1)
    expect(linkAccount).toHaveBeenCalledTimes(1)
    expect((await agent.get("/auth/session").expect(200)).body.user.email).toBe("alice@example.com")
    expect([adapter.store.users.size, adapter.store.accounts.size]).toEqual([1, 1])
    const events = logger.error.mock.calls.map(([error]) => error).filter((error) => error instanceof EventError)
    expect(events.map((error) => ((error.cause as { err: Error }).err).message).sort()).toEqual(["audit store rejected createUser", "audit store rejected linkAccount"])
    await settle()
    expect(escaped).toEqual([])
  })
})
