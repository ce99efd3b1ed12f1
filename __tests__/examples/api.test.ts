/**
 * The API example, used as an API client would: 401 JSON without credentials, a bearer token from
 * POST /token, 200 with it, 401 with a tampered, expired or foreign token; a browser session
 * cookie works on the same routes.
 */
import type { Server } from "node:http"
import type { Express } from "express"
import supertest from "supertest"
import { encode } from "gatehouse/jwt"

const SECRET = "api-example-test-secret-0123456789abcdef"
process.env.AUTH_SECRET = SECRET
const { app } = (await import("../../examples/api/index.js")) as { app: Express }

let server: Server
beforeAll(async () => {
  server = app.listen(0, "127.0.0.1")
  await new Promise((listening) => server.once("listening", listening))
})
afterAll(() => new Promise<void>((done) => server.close(() => done())))
const request = () => supertest(server)

async function issueToken(): Promise<string> {
  const response = await request().post("/token").send({ username: "demo", password: "demo" }).expect(200)
  expect(response.body).toMatchObject({ token_type: "Bearer", expires_in: 3600 })
  expect(response.headers["cache-control"]).toBe("no-store")
  return response.body.token as string
}

/** The token with one character of its ciphertext changed. */
function tamper(token: string): string {
  const parts = token.split(".")
  const ciphertext = parts[3]!
  const middle = Math.floor(ciphertext.length / 2)
  parts[3] = ciphertext.slice(0, middle) + (ciphertext[middle] === "A" ? "B" : "A") + ciphertext.slice(middle + 1)
  return parts.join(".")
}

describe("examples/api", () => {
  test("without a token the API answers 401 JSON, never a redirect", async () => {
    const response = await request().get("/api/me").expect(401)
    expect(response.headers["content-type"]).toMatch(/application\/json/)
    expect(response.body).toEqual({ error: { type: "SessionRequired", message: expect.any(String) } })
    await request().get("/api/notes").set("Accept", "application/json").expect(401)
    await request().get("/api/health").expect(200, { ok: true })
  })

  test("POST /token refuses wrong credentials with 401 JSON", async () => {
    const wrong = await request().post("/token").send({ username: "demo", password: "nope" }).expect(401)
    expect(wrong.body.error.type).toBe("CredentialsSignin")
    const unknown = await request().post("/token").send({ username: "nobody", password: "demo" }).expect(401)
    expect(unknown.body).toEqual(wrong.body)
    await request().post("/token").send({ username: ["demo"], password: "demo" }).expect(401)
    const malformed = await request().post("/token").set("Content-Type", "application/json").send("{not json").expect(400)
    expect(malformed.body.error.type).toBe("InvalidRequest")
  })

  test("a bearer token from POST /token opens the API", async () => {
    const token = await issueToken()
    const me = await request().get("/api/me").set("Authorization", `Bearer ${token}`).expect(200)
    expect(me.body).toEqual({ id: "1", name: "Demo User", email: "demo@example.com", via: "bearer" })

    const created = await request().post("/api/notes").set("Authorization", `Bearer ${token}`).send({ text: "hello" }).expect(201)
    expect(created.body).toMatchObject({ text: "hello", author: "1" })
    const notes = await request().get("/api/notes").set("Authorization", `Bearer ${token}`).expect(200)
    expect(notes.body.map((note: { text: string }) => note.text)).toContain("hello")
    await request().post("/api/notes").set("Authorization", `Bearer ${token}`).send({ text: "" }).expect(400)
  })

  test("a tampered, expired, foreign or malformed token gets 401", async () => {
    const token = await issueToken()
    for (const bad of [
      tamper(token),
      token.slice(0, -2),
      "not-a-token",
      await encode({ token: { sub: "1" }, secret: SECRET, salt: "authjs.session-token", maxAge: -60 }),
      await encode({ token: { sub: "1" }, secret: "another-secret-entirely-0123456789", salt: "authjs.session-token" }),
      await encode({ token: { sub: "1" }, secret: SECRET, salt: "another-salt" }),
    ]) {
      const response = await request().get("/api/me").set("Authorization", `Bearer ${bad}`).expect(401)
      expect(response.body.error.type).toBe("SessionRequired")
    }
    await request().get("/api/me").set("Authorization", `Basic ${token}`).expect(401)
  })

  test("a token without a subject is refused", async () => {
    const anonymous = await encode({ token: { name: "nobody" }, secret: SECRET, salt: "authjs.session-token" })
    await request().get("/api/me").set("Authorization", `Bearer ${anonymous}`).expect(401)
  })

  test("a browser signed in at /auth uses the API with its session cookie", async () => {
    const agent = supertest.agent(server)
    const { body } = await agent.get("/auth/csrf").expect(200)
    await agent.post("/auth/callback/credentials").type("form").send({ csrfToken: body.csrfToken, username: "demo", password: "demo" }).expect(302)
    const me = await agent.get("/api/me").expect(200)
    expect(me.body).toMatchObject({ name: "Demo User", email: "demo@example.com", via: "session" })
    await request().get("/api/nope").set("Authorization", "Bearer x").expect(404)
  })
})
