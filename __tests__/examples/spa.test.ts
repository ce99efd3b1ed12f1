/**
 * The single-page app example's server (examples/spa/server.js) without a browser, as the built
 * React app talks to it: the API refuses a signed-out caller with 401 JSON, the JSON sign-in of
 * the demo account (what gatehouse/client sends) opens it, and every other page request gets the
 * app's index.html while Gatehouse's own routes stay Gatehouse's. The browser journeys are in
 * __tests__/e2e/spa.test.ts.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { Server } from "node:http"
import type { Express } from "express"
import supertest from "supertest"

const dist = mkdtempSync(join(tmpdir(), "gatehouse-spa-"))
mkdirSync(join(dist, "assets"))
writeFileSync(join(dist, "index.html"), `<!doctype html><title>SPA</title><div id="root"></div><script type="module" src="/assets/app-1.js"></script>`)
writeFileSync(join(dist, "assets", "app-1.js"), "console.log('app')\n")
process.env.DATABASE_URL = "sqlite::memory:"
process.env.SPA_DIST = dist
process.env.AUTH_SECRET = "spa-example-test-secret-0123456789abcdef"
const { app, DEMO } = (await import("../../examples/spa/server.js")) as { app: Express; DEMO: { email: string; password: string } }

let server: Server
beforeAll(async () => {
  server = app.listen(0, "127.0.0.1")
  await new Promise((listening) => server.once("listening", listening))
})
afterAll(async () => {
  await new Promise<void>((done) => server.close(() => done()))
  rmSync(dist, { recursive: true, force: true })
})

const JSON_CLIENT = { Accept: "application/json", "X-Auth-Return-Redirect": "1" }

describe("examples/spa", () => {
  test("GET /api/notes is 401 JSON signed out; the demo account signs in by JSON and reads it", async () => {
    const agent = supertest.agent(server)
    const refused = await agent.get("/api/notes").set("Accept", "application/json").expect(401)
    expect(refused.body.error.type).toBe("SessionRequired")

    const { csrfToken } = (await agent.get("/auth/csrf").set(JSON_CLIENT).expect(200)).body as { csrfToken: string }
    const wrong = await agent.post("/auth/callback/password").set(JSON_CLIENT).type("form").send({ csrfToken, email: DEMO.email, password: "not the password" })
    expect(wrong.body).toMatchObject({ error: { type: "CredentialsSignin" } })
    await agent.get("/api/notes").set("Accept", "application/json").expect(401)

    const signedIn = await agent.post("/auth/callback/password").set(JSON_CLIENT).type("form").send({ csrfToken, email: DEMO.email, password: DEMO.password }).expect(200)
    expect(signedIn.body).toEqual({ url: expect.any(String) })
    const notes = await agent.get("/api/notes").set("Accept", "application/json").expect(200)
    expect(notes.body).toMatchObject({ user: DEMO.email, notes: expect.arrayContaining([expect.objectContaining({ id: 1 })]) })
    const session = await agent.get("/auth/session").set("Accept", "application/json").expect(200)
    expect(session.body).toMatchObject({ user: { email: DEMO.email } })
  })

  test("a page request anywhere is the app's index.html; assets are served long-lived; Gatehouse's routes stay its own", async () => {
    const page = await supertest(server).get("/devices").set("Accept", "text/html").expect(200)
    expect(page.text).toContain('<div id="root"></div>')
    expect(page.headers["cache-control"]).toBe("no-cache")
    const asset = await supertest(server).get("/assets/app-1.js").expect(200)
    expect(asset.headers["cache-control"]).toMatch(/immutable/)
    await supertest(server).get("/assets/missing.js").expect(404)
    // Not a page request (an API client): no index.html.
    await supertest(server).get("/devices").set("Accept", "application/json").expect(404)
    // Gatehouse's own pages (two-factor set-up, the account page) are not swallowed by the app.
    const signin = await supertest(server).get("/auth/signin").set("Accept", "text/html").expect(200)
    expect(signin.text).not.toContain('<div id="root"></div>')
  })
})
