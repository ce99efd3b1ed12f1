/**
 * A magic link through the real SMTP sink, and a database session read on PostgreSQL, traced: the
 * mail span with the recipient's domain only, the adapter calls as children of their action, the
 * session read counted with its strategy; never the link's token, the address or the cookie.
 */
import { jest } from "@jest/globals"
import { SpanKind } from "@opentelemetry/api"
import { closeTestDatabase, openTestDatabase, uniquePrefix } from "../helpers/databases.js"
import { ALICE, follow, mailFor, sessionCookie, startSite } from "../email/support.js"
import { allPoints, childrenOf, expectNoSecrets, exported, idOf, parentOf, startTelemetry, type Telemetry } from "./support.js"

jest.setTimeout(30_000)

let telemetry: Telemetry
beforeEach(() => {
  telemetry = startTelemetry()
})
afterEach(() => telemetry.close())

describe("a magic link", () => {
  it("the sign-in span holds the adapter calls and the mail span (domain only); the callback completes the sign-in", async () => {
    const site = await startSite({ config: { telemetry: telemetry.option } })
    const agent = site.agent()
    const { link } = await mailFor(site, agent, ALICE)
    const signin = telemetry.spans().find((span) => span.name === "gatehouse.signin" && span.attributes["http.request.method"] === "POST")!
    expect(signin.attributes).toMatchObject({ "gatehouse.provider.id": "nodemailer", "gatehouse.provider.type": "email", "gatehouse.outcome": "success" })
    const send = telemetry.one("gatehouse.mail.send")
    expect(parentOf(send)).toBe(idOf(signin))
    expect(send.kind).toBe(SpanKind.CLIENT)
    expect(send.attributes).toEqual({ "gatehouse.provider.id": "nodemailer", "gatehouse.mail.recipient_domain": "example.com" })
    const adapterCalls = childrenOf(telemetry.spans(), signin).map((span) => span.name)
    expect(adapterCalls).toEqual(expect.arrayContaining(["gatehouse.adapter.getUserByEmail", "gatehouse.adapter.createVerificationToken"]))
    expect(telemetry.one("gatehouse.adapter.createVerificationToken").attributes).toEqual({ "gatehouse.adapter.method": "createVerificationToken" })

    const done = await follow(agent, link)
    expect(done.status).toBe(302)
    const cookie = sessionCookie(done)
    expect(cookie).toBeTruthy()
    // The link's GET answers a confirm page (pending); its POST signs in.
    const callbacks = telemetry.named("gatehouse.callback")
    expect(callbacks.map((span) => [span.attributes["http.request.method"], span.attributes["gatehouse.outcome"]])).toEqual([
      ["GET", "pending"],
      ["POST", "success"],
    ])
    const used = telemetry.one("gatehouse.adapter.useVerificationToken")
    expect(parentOf(used)).toBe(idOf(callbacks[1]!))
    expect(await telemetry.count("gatehouse.signin.attempts", { "gatehouse.provider.id": "nodemailer", "gatehouse.outcome": "success" })).toBe(1)
    expect(await telemetry.count("gatehouse.adapter.operation.duration", { "gatehouse.adapter.method": "useVerificationToken" })).toBe(1)

    expectNoSecrets(exported(telemetry.spans(), await allPoints(telemetry)), {
      "link token": link.searchParams.get("token") ?? undefined,
      "link URL": link.href,
      "email address": ALICE,
      "session cookie": cookie,
    })
  })
})

describe("a database session on PostgreSQL", () => {
  const prefix = uniquePrefix("otel")
  let adapter: Awaited<ReturnType<typeof openTestDatabase>>
  beforeAll(async () => {
    adapter = await openTestDatabase("postgres", prefix)
  })
  afterAll(() => closeTestDatabase(adapter, prefix))

  it("a read through requireAuth is counted (database, active) and its adapter call timed, without a span of its own", async () => {
    const site = await startSite({ adapter, config: { telemetry: telemetry.option, session: { strategy: "database" } } })
    const agent = site.agent()
    const { link } = await mailFor(site, agent, "dora@db.example")
    const done = await follow(agent, link)
    const cookie = sessionCookie(done)
    expect(cookie).toBeTruthy()
    telemetry.reset()

    const me = await agent.get("/api/me").expect(200)
    expect(me.body.user.email).toBe("dora@db.example")
    expect(await site.agent().get("/api/me").set("Cookie", "authjs.session-token=no-such-session").then((response) => response.status)).toBe(401)

    // No action span on this path: the adapter's span is a root here (or the app's span's child).
    expect(telemetry.spans().map((span) => span.name)).toEqual(["gatehouse.adapter.getSessionAndUser", "gatehouse.adapter.getSessionAndUser"])
    expect(await telemetry.count("gatehouse.session.reads", { "gatehouse.session.strategy": "database", "gatehouse.outcome": "active" })).toBe(1)
    expect(await telemetry.count("gatehouse.session.reads", { "gatehouse.session.strategy": "database", "gatehouse.outcome": "invalid" })).toBe(1)
    expect(await telemetry.count("gatehouse.adapter.operation.duration", { "gatehouse.adapter.method": "getSessionAndUser" })).toBe(2)
    expectNoSecrets(exported(telemetry.spans(), await allPoints(telemetry)), { "session token": cookie, "email address": "dora@db.example" })
  })

  it("an adapter failure: the adapter span fails with AdapterError, and the read is counted as an error", async () => {
    const site = await startSite({
      adapter: { ...adapter, getSessionAndUser: async () => Promise.reject(new Error("connection to dora@db.example lost")) },
      config: { telemetry: telemetry.option, session: { strategy: "database" } },
    })
    const agent = site.agent()
    const response = await agent.get("/api/me").set("Cookie", "authjs.session-token=some-session-token-value")
    expect(response.status).toBe(503)
    const span = telemetry.one("gatehouse.adapter.getSessionAndUser")
    expect(span.attributes["error.type"]).toBe("AdapterError")
    expect(await telemetry.count("gatehouse.session.reads", { "gatehouse.session.strategy": "database", "gatehouse.outcome": "error" })).toBe(1)
    expectNoSecrets(exported(telemetry.spans(), await allPoints(telemetry)), { "the error's message": "dora@db.example", "session token": "some-session-token-value" })
  })
})
