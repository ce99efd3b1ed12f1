/**
 * The ways to sign in of the banned-sign-in suite (not a test file): an admin app
 * (__tests__/admin/support.ts) with every kind of provider at once (Credentials, Password,
 * magic link, passkey, OIDC), the servers it talks to (a real SMTP sink and a real
 * oidc-provider, both on 127.0.0.1, opened and closed by the suite), and for each method a user
 * who can use it and one attempt at signing in, driven as the other suites drive that method.
 */
import type { Adapter } from "../../lib/adapters.js"
import Nodemailer from "../../lib/providers/nodemailer.js"
import Password from "../../lib/providers/password.js"
import Passkey from "../../lib/providers/passkey.js"
import { setCookies } from "../helpers/app.js"
import { linkIn, startSmtp, type SmtpSink } from "../helpers/smtp.js"
import { startIdp, type TestIdp } from "../helpers/idp.js"
import { credentialsProvider, PASSWORD } from "../integration/organizations/support.js"
import { askForLink, follow } from "../email/support.js"
import { GOOD_PASSWORD, signIn as passwordSignIn, signUp, useLink } from "../password/support.js"
import { Browser, passkeySignIn, seedPasskey, softFor, type Site } from "../webauthn/fixtures.js"
import { authorizationUrl, client, local, oidc, startSignIn } from "../oauth/support.js"
import { agentFor, buildAdminApp, csrfOf, storedUser, unique, type AdminApp } from "./support.js"

export const SESSION_COOKIE = "authjs.session-token"
const HOST = "app.test"
const ORIGIN = `http://${HOST}`
/** The passkey site is the admin app's own: no AUTH_URL, the Host header `app.test`. */
const SITE: Site = { host: HOST, origin: ORIGIN, rpId: HOST, secure: false }

export interface Servers {
  smtp: SmtpSink
  idp: TestIdp
  close(): Promise<void>
}

/** The SMTP sink and the IdP (its client registered with the app's callback at http://app.test). */
export async function startServers(): Promise<Servers> {
  const smtp = await startSmtp()
  const idp = await startIdp({ clients: [client(ORIGIN)] }).catch(async (error: unknown) => {
    await smtp.close()
    throw error
  })
  return { smtp, idp, close: async () => void (await Promise.all([smtp.close(), idp.close()])) }
}

/** The admin app with every method (Credentials first, as buildAdminApp has it). */
export function methodsApp(adapter: Adapter, servers: Servers): AdminApp {
  const mail = () => Nodemailer({ server: servers.smtp.url, from: "auth@example.test" })
  return buildAdminApp(adapter, { extra: { providers: [credentialsProvider(), Password({ email: mail() }), mail(), Passkey(), oidc(servers.idp)] } })
}

type Response = { status: number; headers: Record<string, unknown>; text?: string }

/** One attempt at signing in: the answer that ends it, and who the browser is now (its session's email, or null). */
export interface Attempt {
  res: Response
  signedInAs(): Promise<string | null>
}

/** A user who can sign in by one method. */
export interface Way {
  userId: string
  email: string
  signIn(): Promise<Attempt>
  /** The password method also tries a wrong password. */
  wrongPassword?(): Promise<Attempt>
}

export interface Method {
  name: string
  /** The provider id the audit trail names. */
  provider: string
  prepare(t: AdminApp, servers: Servers): Promise<Way>
}

/** The non-empty session cookie a response sets, if any. */
export function sessionSet(res: Response): string | undefined {
  return setCookies(res).find((cookie) => cookie.name === SESSION_COOKIE && cookie.value !== "")?.value
}

type AgentLike = ReturnType<typeof agentFor>

async function sessionEmail(agent: AgentLike): Promise<string | null> {
  const response = await agent.get("/auth/session").set("Accept", "application/json").expect(200)
  return (response.body?.user?.email as string | undefined) ?? null
}

/** Waits for the next mail after `before` and returns its link. */
async function nextLink(smtp: SmtpSink, before: number): Promise<URL> {
  const messages = await smtp.waitFor(before + 1)
  return linkIn(messages[before]!)
}

const credentials: Method = {
  name: "Credentials",
  provider: "credentials",
  async prepare(t) {
    const user = await storedUser(t.adapter, "cred")
    const attempt = async (password: string): Promise<Attempt> => {
      const agent = agentFor(t.app)
      // The token first: the agent puts its cookies on a request when the request is made.
      const csrfToken = await csrfOf(agent)
      const res = await agent.post("/auth/callback/credentials").type("form").send({ csrfToken, username: user.username, password })
      return { res, signedInAs: () => sessionEmail(agent) }
    }
    return { userId: user.id, email: user.email, signIn: () => attempt(PASSWORD) }
  },
}

const password: Method = {
  name: "password",
  provider: "password",
  async prepare(t, { smtp }) {
    // A real account: sign-up, then the confirmation link from the mail.
    const email = `${unique("pw")}@example.com`.toLowerCase()
    const agent = agentFor(t.app)
    const before = smtp.messages.length
    const answer = await signUp(agent, email)
    if (answer.status !== 200) throw new Error(`sign-up failed: ${answer.status}`)
    const confirmed = await useLink(agent, await nextLink(smtp, before))
    if (confirmed.status !== 302) throw new Error(`confirming failed: ${confirmed.status}`)
    const user = await t.adapter.getUserByEmail!(email)
    const attempt = async (secret: string): Promise<Attempt> => {
      const browser = agentFor(t.app)
      const res = await passwordSignIn(browser, email, secret)
      return { res, signedInAs: () => sessionEmail(browser) }
    }
    return { userId: user!.id, email, signIn: () => attempt(GOOD_PASSWORD), wrongPassword: () => attempt("not the password at all") }
  },
}

const magicLink: Method = {
  name: "magic link",
  provider: "nodemailer",
  async prepare(t, { smtp }) {
    const user = await storedUser(t.adapter, "link")
    return {
      userId: user.id,
      email: user.email,
      async signIn() {
        const agent = agentFor(t.app)
        const before = smtp.messages.length
        const asked = await askForLink(agent, user.email)
        if (asked.status !== 302) throw new Error(`asking for a link failed: ${asked.status}`)
        const res = await follow(agent, await nextLink(smtp, before))
        return { res, signedInAs: () => sessionEmail(agent) }
      },
    }
  },
}

const passkey: Method = {
  name: "passkey",
  provider: "passkey",
  async prepare(t) {
    const user = await storedUser(t.adapter, "key")
    const soft = softFor(SITE)
    await seedPasskey(t.adapter, user.id, soft)
    return {
      userId: user.id,
      email: user.email,
      async signIn() {
        const browser = new Browser(t.app, SITE)
        const { res } = await passkeySignIn(browser, soft)
        return { res, signedInAs: async () => ((await browser.session())?.user?.email as string | undefined) ?? null }
      },
    }
  },
}

const openIdConnect: Method = {
  name: "OAuth/OIDC",
  provider: "idp",
  async prepare(t, { idp }) {
    // An account of its own at the IdP: the engines' tables outlive a test, so addresses never repeat.
    const sub = unique("oidc")
    const email = `${sub}@example.com`.toLowerCase()
    idp.accounts[sub] = { email, email_verified: true, name: "Federated Person" }
    const signIn = async (): Promise<Attempt> => {
      const agent = agentFor(t.app)
      const start = await startSignIn(agent, "idp")
      idp.nextLogin = sub
      const back = await idp.browse(authorizationUrl(start).href, `${ORIGIN}/auth/callback/idp`)
      const res = await agent.get(local(back))
      return { res, signedInAs: () => sessionEmail(agent) }
    }
    // The first sign-in makes the user: their id is known only after it.
    const first = await signIn()
    if (first.res.status !== 302 || !sessionSet(first.res)) throw new Error(`the first OIDC sign-in failed: ${first.res.status} ${String(first.res.headers.location)}`)
    const user = await t.adapter.getUserByEmail!(email)
    return { userId: user!.id, email, signIn }
  },
}

export const METHODS: Method[] = [credentials, password, magicLink, passkey, openIdConnect]
