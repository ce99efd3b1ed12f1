/**
 * The `organizations` option and `requireAuth`'s organization rules (issue #27): off, the routes
 * answer 404 OrganizationsUnavailable and a `requireAuth({ permission })` route throws the named
 * InvalidOption on its first request; a permission no role declares, or a role the configuration
 * does not have, is an InvalidOption too; a malformed one is refused when the middleware is made.
 */
import express from "express"
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals"
import { authRouter, authSession, requireAuth } from "../../../lib/index.js"
import { InvalidOption } from "../../../lib/errors.js"
import { ENGINES, ROLES, buildApp, engine, organizationOf, person, refusal, signIn } from "./support.js"
import type { AuthConfig } from "../../../lib/types.js"

describe.each(ENGINES)("the organizations option on %s", (name) => {
  const db = engine(name, "opt")
  beforeAll(() => db.open(), 30_000)
  afterAll(() => db.close())

  it("off: the routes answer 404 OrganizationsUnavailable, sessions carry no organization, a permission route throws InvalidOption", async () => {
    const t = buildApp(db.adapter(), { organizations: false })
    const user = await person(t, "user")
    const created = await user.act("create", { name: "Acme" })
    expect(created.status).toBe(404)
    expect(created.body).toEqual(refusal("OrganizationsUnavailable"))
    for (const path of ["/auth/organizations", "/auth/organizations/some-id"]) {
      const answer = await user.get(path)
      expect(answer.status).toBe(404)
      expect(answer.body).toEqual(refusal("OrganizationsUnavailable"))
    }
    const session = await user.get("/auth/session")
    expect(session.status).toBe(200)
    expect(session.body.user).toMatchObject({ email: user.email })
    expect(session.body).not.toHaveProperty("organization")

    const guarded = await user.get("/projects/edit")
    expect(guarded.status).toBe(500)
    expect(t.errors).toHaveLength(1)
    expect(t.errors[0]).toBeInstanceOf(InvalidOption)
    expect(t.errors[0]!.message).toMatch(/organizations/)
    // The role form too; a plain route is unaffected.
    expect((await user.get("/owners")).status).toBe(500)
    expect(t.errors[1]).toBeInstanceOf(InvalidOption)
    expect((await user.get("/me")).status).toBe(200)
  })

  it("a permission no role declares, or a role the configuration lacks, is an InvalidOption on the first request", async () => {
    const t = buildApp(db.adapter())
    const owner = await person(t, "owner")
    await organizationOf(owner)
    const config: AuthConfig = { ...t.config, organizations: { roles: ROLES } }
    const errors: Error[] = []
    const app = express()
    app.use("/auth", authRouter(config))
    app.use(authSession(config))
    app.get("/billing", requireAuth(config, { permission: "billing:read" }), (_req, res) => res.json({ ok: true }))
    app.get("/wizards", requireAuth(config, { role: "wizard" }), (_req, res) => res.json({ ok: true }))
    app.get("/projects", requireAuth(config, { permission: ["project:read", "project:write"] }), (_req, res) => res.json({ ok: true }))
    app.use((error: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
      errors.push(error)
      res.status(500).end()
    })
    const client = await signIn(app, owner)
    expect((await client.get("/projects")).status).toBe(200)
    expect((await client.get("/billing")).status).toBe(500)
    expect(errors[0]).toBeInstanceOf(InvalidOption)
    expect(errors[0]!.message).toContain("billing:read")
    expect((await client.get("/wizards")).status).toBe(500)
    expect(errors[1]).toBeInstanceOf(InvalidOption)
    expect(errors[1]!.message).toContain("wizard")
  })
})

describe("requireAuth organization rules", () => {
  it("a malformed rule is refused when the middleware is made", () => {
    const config = { secret: "x".repeat(32), providers: [] } as AuthConfig
    expect(() => requireAuth(config, { permission: "no-colon" })).toThrow(InvalidOption)
    expect(() => requireAuth(config, { permission: [] })).toThrow(InvalidOption)
    expect(() => requireAuth(config, { role: "" })).toThrow(InvalidOption)
  })
})
