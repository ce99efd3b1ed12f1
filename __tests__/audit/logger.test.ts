/**
 * Issue #20, logs: a real pino instance and a real winston instance as the `logger` option, each
 * writing to a stream the test reads: every line is structured (fields, not a preformatted
 * string) and a line written while a request is handled carries that request's id (the one
 * answered as X-Request-Id). The console logger says the id too when requests are tracked.
 */
import { afterEach, describe, expect, it, jest } from "@jest/globals"
import { Writable } from "node:stream"
import pino from "pino"
import winston from "winston"
import { credentials, csrfToken, makeApp, request, testConfig, type Agent } from "../helpers/app.js"
import type { AuthConfig } from "../../lib/types.js"

/** A stream that keeps each JSON line it is given, parsed. */
function lines() {
  const seen: Array<Record<string, unknown>> = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n")) if (line.trim()) seen.push(JSON.parse(line) as Record<string, unknown>)
      done()
    },
  })
  return { seen, stream }
}

async function wrongPassword(config: AuthConfig) {
  const agent = request.agent(makeApp(config)) as unknown as Agent
  const token = await csrfToken(agent)
  const response = await agent.post("/auth/callback/credentials").type("form").send({ csrfToken: token, username: "alice", password: "wrong-password-55" })
  expect(response.status).toBe(302)
  return String(response.headers["x-request-id"])
}

const brokenAuthorize = () =>
  credentials({
    authorize: () => {
      throw new Error("user table unreachable")
    },
  })

afterEach(() => {
  jest.restoreAllMocks()
})

describe("a pino instance as the logger", () => {
  it("gets a wrong password as an info line of fields (type, component, requestId) with the message, from the request that caused it", async () => {
    const { seen, stream } = lines()
    const requestId = await wrongPassword(testConfig({ logger: pino({ level: "debug" }, stream) }))
    const line = seen.find((entry) => entry.type === "CredentialsSignin")
    // Ordinary traffic, not a failure (issue #26): info, never error.
    expect(line).toMatchObject({ level: 30, component: "gatehouse", type: "CredentialsSignin", code: "credentials", requestId })
    expect(seen.filter((entry) => (entry.level as number) >= 50)).toEqual([])
    expect(typeof line!.msg).toBe("string")
    // An expected refusal: no stack.
    expect(line!.err).toBeUndefined()
    expect(JSON.stringify(seen)).not.toContain("wrong-password-55")
  })

  it("an unexpected error carries its cause and, through pino's err serializer, the stack", async () => {
    const { seen, stream } = lines()
    const requestId = await wrongPassword(testConfig({ providers: [brokenAuthorize()], logger: pino({ level: "debug" }, stream) }))
    const line = seen.find((entry) => entry.level === 50)
    expect(line).toMatchObject({ component: "gatehouse", requestId })
    expect(JSON.stringify(line)).toContain("user table unreachable")
    expect(JSON.stringify(line)).toMatch(/"stack":"[^"]*at /)
  })

  it("debug lines are fields too, with the request id; pino's own level filters them", async () => {
    const { seen, stream } = lines()
    const config = testConfig({ logger: pino({ level: "debug" }, stream) })
    const response = await request(makeApp(config)).get("/auth/session").set("Cookie", "authjs.session-token=not-a-sealed-token").expect(200)
    const line = seen.find((entry) => entry.level === 20 && String(entry.msg).includes("JWTSessionError"))
    expect(line).toMatchObject({ component: "gatehouse", requestId: response.headers["x-request-id"] })

    const quiet = lines()
    await request(makeApp(testConfig({ logger: pino({ level: "error" }, quiet.stream) }))).get("/auth/session").set("Cookie", "authjs.session-token=not-a-sealed-token").expect(200)
    expect(quiet.seen.filter((entry) => (entry.level as number) < 50)).toEqual([])
  })

  it("a warning at start-up is a warn line with its code and no request id", () => {
    const { seen, stream } = lines()
    makeApp(testConfig({ debug: false, logger: pino({ level: "debug" }, stream) }))
    const line = seen.find((entry) => entry.code === "debug-deprecated")
    expect(line).toMatchObject({ level: 40, component: "gatehouse", code: "debug-deprecated" })
    expect(line!.requestId).toBeUndefined()
    expect(typeof line!.msg).toBe("string")
  })

  it("a child logger (pino-http's req.log style) works the same, its bindings kept", async () => {
    const { seen, stream } = lines()
    const requestId = await wrongPassword(testConfig({ logger: pino({ level: "debug" }, stream).child({ service: "shop" }) }))
    expect(seen.find((entry) => entry.type === "CredentialsSignin")).toMatchObject({ service: "shop", requestId })
  })
})

describe("a winston instance as the logger", () => {
  function winstonTo(stream: Writable, level = "debug") {
    return winston.createLogger({ level, format: winston.format.json(), transports: [new winston.transports.Stream({ stream })] })
  }

  it("gets a wrong password as an info `message` plus fields (type, component, requestId)", async () => {
    const { seen, stream } = lines()
    const requestId = await wrongPassword(testConfig({ logger: winstonTo(stream) }))
    const line = seen.find((entry) => entry.type === "CredentialsSignin")
    expect(line).toMatchObject({ level: "info", component: "gatehouse", type: "CredentialsSignin", requestId })
    expect(seen.filter((entry) => entry.level === "error")).toEqual([])
    expect(typeof line!.message).toBe("string")
    expect(JSON.stringify(seen)).not.toContain("wrong-password-55")
  })

  it("an unexpected error carries its cause and stack as fields", async () => {
    const { seen, stream } = lines()
    const requestId = await wrongPassword(testConfig({ providers: [brokenAuthorize()], logger: winstonTo(stream) }))
    const line = seen.find((entry) => entry.level === "error")
    expect(line).toMatchObject({ component: "gatehouse", requestId, cause: expect.objectContaining({ message: "user table unreachable" }) })
    expect(String(line!.stack)).toContain("at ")
  })

  it("debug lines carry the request id; winston's level filters them", async () => {
    const { seen, stream } = lines()
    const response = await request(makeApp(testConfig({ logger: winstonTo(stream) }))).get("/auth/session").set("Cookie", "authjs.session-token=not-a-sealed-token").expect(200)
    expect(seen.find((entry) => entry.level === "debug" && String(entry.message).includes("JWTSessionError"))).toMatchObject({ requestId: response.headers["x-request-id"] })
    const quiet = lines()
    await request(makeApp(testConfig({ logger: winstonTo(quiet.stream, "warn") }))).get("/auth/session").set("Cookie", "authjs.session-token=not-a-sealed-token").expect(200)
    expect(quiet.seen.filter((entry) => entry.level === "debug")).toEqual([])
  })
})

describe("the other logger shapes", () => {
  it("the console logger names the request when requests are tracked (logLevel verbose)", async () => {
    const error = jest.spyOn(console, "error").mockImplementation(() => undefined)
    jest.spyOn(console, "debug").mockImplementation(() => undefined)
    const requestId = await wrongPassword(testConfig({ providers: [brokenAuthorize()], logLevel: "verbose" }))
    const first = String(error.mock.calls[0]![0])
    expect(first.startsWith("[gatehouse][error] CallbackRouteError: ")).toBe(true)
    expect(first.endsWith(` (request ${requestId})`)).toBe(true)
  })

  it("an object of functions still receives exactly what it did before (the error alone)", async () => {
    const error = jest.fn<(error: Error) => void>()
    await wrongPassword(testConfig({ providers: [brokenAuthorize()], logger: { error } }))
    expect(error).toHaveBeenCalledTimes(1)
    expect(error.mock.calls[0]).toHaveLength(1)
    expect(error.mock.calls[0]![0]).toMatchObject({ type: "CallbackRouteError" })
  })

  it("anything else is refused at start-up", () => {
    expect(() => makeApp(testConfig({ logger: "console" as never }))).toThrow(expect.objectContaining({ type: "InvalidOption", message: expect.stringContaining("pino or winston") }))
  })
})
