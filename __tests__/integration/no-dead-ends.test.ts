/**
 * Issue #26, no dead ends and nothing untrue, outside the sign-in and account pages: the sign-out
 * page's "Cancel"; the themed 404 page for a browser that asks for no action, an action that is
 * off or a provider that does not exist (JSON stays for JSON and API clients); the notice after an
 * email change was undone; the passkey set-up page says "Your email address is confirmed." only
 * after a sign-in by a link from the mail.
 */
import { describe, expect, it } from "@jest/globals"
import express from "express"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { Auth } from "../../lib/core/index.js"
import { authRouter } from "../../lib/index.js"
import Nodemailer from "../../lib/providers/nodemailer.js"
import Passkey from "../../lib/providers/passkey.js"
import Password from "../../lib/providers/password.js"
import { makeApp, request, serve, signInAs, testConfig } from "../helpers/app.js"
import { ORIGIN, agentFor } from "./support.js"
import { startSmtp } from "../helpers/smtp.js"
import { ALICE, signInByEmail, startSite } from "../email/support.js"
import { registered, signIn as passwordSignIn, type PasswordSite } from "../password/support.js"

const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"

function linkNamed(html: string, text: string): string | undefined {
  const match = new RegExp(`<a (?:class="[^"]*" )?href="([^"]*)">${text}</a>`).exec(html)
  return match?.[1]?.replace(/&amp;/g, "&")
}

describe("the sign-out page's Cancel", () => {
  it("goes back to the callback URL the page was opened with; the form still signs out to it", async () => {
    const agent = agentFor(makeApp(testConfig()))
    await signInAs(agent, "alice")
    const page = await agent.get("/auth/signout?callbackUrl=%2Fdashboard").expect(200)
    const cancel = linkNamed(page.text, "Cancel")
    expect(new URL(cancel!).pathname).toBe("/dashboard")
    expect(page.text).toContain('<a class="button secondary" href=')
    expect(page.text).toContain('name="callbackUrl" value="' + new URL(cancel!).origin + '/dashboard"')
    // Cancelling changes nothing: still signed in.
    expect((await agent.get("/auth/session").expect(200)).body?.user?.email).toBe("alice@example.com")
  })

  it("without a callback URL: the app's home page (pages.home), else the site's root", async () => {
    const plain = await agentFor(makeApp(testConfig())).get("/auth/signout").expect(200)
    expect(new URL(linkNamed(plain.text, "Cancel")!).pathname).toBe("/")
    const withHome = await agentFor(makeApp(testConfig({ pages: { home: "/app" } }))).get("/auth/signout").expect(200)
    expect(new URL(linkNamed(withHome.text, "Cancel")!).pathname).toBe("/app")
  })

  it("never goes to another site: a foreign callback URL gives the site's root", async () => {
    const page = await agentFor(makeApp(testConfig())).get("/auth/signout?callbackUrl=https%3A%2F%2Fevil.example%2F").expect(200)
    const cancel = new URL(linkNamed(page.text, "Cancel")!)
    expect(cancel.hostname).toBe("app.test")
    expect(cancel.pathname).toBe("/")
  })

  it("is translated", async () => {
    const agent = agentFor(makeApp(testConfig()))
    for (const [language, text] of [["de", "Abbrechen"], ["fr", "Annuler"], ["es", "Cancelar"], ["ja", "キャンセル"]]) {
      const page = await agent.get("/auth/signout").set("Accept-Language", language!).expect(200)
      expect(linkNamed(page.text, text!)).toBeDefined()
    }
  })
})

describe("a browser that asks for no action gets the themed 404 page", () => {
  it("an unknown action: HTML 404, the error page's look, a way to the sign-in page", async () => {
    const response = await agentFor(makeApp(testConfig())).get("/auth/nothing-here").set("Accept", BROWSER_ACCEPT).expect(404)
    expect(response.headers["content-type"]).toMatch(/^text\/html/)
    expect(response.headers["content-security-policy"]).toContain("default-src 'none'")
    expect(response.text).toContain("<h1>Page not found</h1>")
    expect(new URL(linkNamed(response.text, "Go to the sign-in page")!, ORIGIN).pathname).toBe("/auth/signin")
  })

  it("in the request's language", async () => {
    const response = await agentFor(makeApp(testConfig())).get("/auth/nothing-here").set("Accept", BROWSER_ACCEPT).set("Accept-Language", "de").expect(404)
    expect(response.text).toContain("<h1>Seite nicht gefunden</h1>")
    expect(response.text).toContain(">Zur Anmeldeseite</a>")
  })

  it.each([
    ["an action that is off (diagnostics in production)", "/auth/diagnostics", { diagnostics: false }],
    ["an action that is off (two-factor without the twoFactor option)", "/auth/two-factor/setup", {}],
    ["a provider that does not exist", "/auth/signin/nobody", {}],
    ["a path with extra segments", "/auth/signout/extra", {}],
  ])("%s", async (_name, path, overrides) => {
    const response = await agentFor(makeApp(testConfig(overrides))).get(path).set("Accept", BROWSER_ACCEPT).expect(404)
    expect(response.text).toContain("<h1>Page not found</h1>")
  })

  it("JSON clients keep the JSON error: Accept application/json, no Accept, and the spec's JSON actions", async () => {
    const app = makeApp(testConfig())
    const json = await agentFor(app).get("/auth/nothing-here").set("Accept", "application/json").expect(404)
    expect(json.body).toEqual({ error: { type: "UnknownAction", message: "There is no such action." } })
    const bare = await agentFor(app).get("/auth/nothing-here").expect(404)
    expect(bare.body.error.type).toBe("UnknownAction")
    const provider = await agentFor(app).get("/auth/signin/nobody").expect(404)
    expect(provider.body.error.type).toBe("InvalidProvider")
    // `webauthn-options` answers JSON by spec, whatever the browser accepts.
    const api = await agentFor(app).get("/auth/webauthn-options/nobody").set("Accept", BROWSER_ACCEPT).expect(404)
    expect(api.body.error.type).toBe("InvalidProvider")
  })

  it("under a root mount with basePath, the way back is basePath's sign-in page", async () => {
    const app = express()
    app.use(authRouter(testConfig({ basePath: "/api/auth" })))
    const response = await request(app).get("/api/auth/nope").set("Accept", BROWSER_ACCEPT).expect(404)
    expect(linkNamed(response.text, "Go to the sign-in page")).toBe("/api/auth/signin")
  })

  it("through Auth() (a web Request) as well; JSON there for JSON", async () => {
    const page = await Auth(new Request(`${ORIGIN}/auth/nope`, { headers: { accept: BROWSER_ACCEPT } }), testConfig())
    expect(page.status).toBe(404)
    expect(page.headers.get("content-type")).toMatch(/^text\/html/)
    expect(await page.text()).toContain("<h1>Page not found</h1>")
    const json = await Auth(new Request(`${ORIGIN}/auth/nope`, { headers: { accept: "application/json" } }), testConfig())
    expect(((await json.json()) as { error: { type: string } }).error.type).toBe("UnknownAction")
  })
})

describe("the notice after an email change was undone", () => {
  it("sends the person to sign in again; without password accounts it mentions no password", async () => {
    const page = await agentFor(makeApp(testConfig())).get("/auth/notice?type=EmailChangeUndone").expect(200)
    expect(page.text).not.toContain("password")
    expect(new URL(linkNamed(page.text, "Sign in again")!).pathname).toBe("/auth/signin")
    // Its title is its own heading, not another notice's ("Your account is secured").
    expect(page.text).toContain("<title>Your email address is back</title>")
    const reclaimed = await agentFor(makeApp(testConfig())).get("/auth/notice?type=AccountReclaimed").expect(200)
    expect(reclaimed.text).toContain("<title>Your account is secured</title>")
    expect(linkNamed(reclaimed.text, "Continue")).toBe(`${ORIGIN}/`)
  })

  it("with password accounts, it says how to choose a new password, by the link's own name", async () => {
    const smtp = await startSmtp()
    try {
      const config = testConfig({ providers: [Password({ email: Nodemailer({ server: smtp.url, from: "auth@example.test" }) })], adapter: MemoryAdapter() })
      const page = await agentFor(makeApp(config)).get("/auth/notice?type=EmailChangeUndone").expect(200)
      expect(page.text).toContain("If someone else may know your password, choose a new one with “Forgot your password?”.")
      const german = await agentFor(makeApp(config)).get("/auth/notice?type=EmailChangeUndone").set("Accept-Language", "de").expect(200)
      expect(german.text).toContain("„Passwort vergessen?“")
    } finally {
      await smtp.close()
    }
  })
})

describe("the passkey set-up page", () => {
  const CONFIRMED = "Your email address is confirmed."

  it("after a sign-in by the mail's link, says the address is confirmed", async () => {
    const site = await startSite({ providers: (smtp) => [Nodemailer({ server: smtp.url }), Passkey()] })
    const agent = site.agent()
    await signInByEmail(site, agent, ALICE)
    const page = await agent.get("/auth/passkey-setup").expect(200)
    expect(page.text).toContain(CONFIRMED)
    expect(page.text).toContain("Create a passkey to sign in next time")
  })

  it("after a password sign-in, does not", async () => {
    const smtp = await startSmtp()
    const adapter = MemoryAdapter()
    const config = testConfig({ providers: [Password({ email: Nodemailer({ server: smtp.url, from: "auth@example.test" }) }), Passkey()], adapter })
    const server = await serve(makeApp(config))
    try {
      const site = { url: server.url, smtp, adapter, config, agent: () => request.agent(server.url) } as unknown as PasswordSite
      await registered(site, "pat@example.com")
      const agent = site.agent()
      expect((await passwordSignIn(agent, "pat@example.com")).status).toBe(302)
      const page = await agent.get("/auth/passkey-setup").expect(200)
      expect(page.text).not.toContain(CONFIRMED)
      expect(page.text).toContain("Create a passkey to sign in next time")
    } finally {
      server.server.closeAllConnections()
      await Promise.all([server.close(), smtp.close()])
    }
  })
})
