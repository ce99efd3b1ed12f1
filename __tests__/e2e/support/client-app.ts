/**
 * The app the gatehouse/client browser tests talk to: Gatehouse with every sign-in method the
 * client drives (credentials, Password, an email provider with codes sent to a real SMTP sink,
 * passkeys, GitHub for the redirect URL) and two-factor sign-in, in memory; the client bundled by
 * esbuild from client/src (ES modules, the passkey library split into its own lazily loaded
 * chunk) and served at /client/index.js; and /app, an empty page that imports it as `window.gatehouse`.
 */
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import express from "express"
import { build } from "esbuild"
import type { Page } from "playwright-core"
import { MemoryAdapter } from "gatehouse/adapters/memory"
import { authRouter, authSession } from "gatehouse"
import Credentials from "gatehouse/providers/credentials"
import GitHub from "gatehouse/providers/github"
import Nodemailer from "gatehouse/providers/nodemailer"
import Passkey from "gatehouse/providers/passkey"
import Password from "gatehouse/providers/password"
import type * as ClientModule from "../../../client/src/index.js"
import { hashPassword } from "../../../lib/password/hash.js"
import { startSmtp, type SmtpSink } from "../../helpers/smtp.js"

declare global {
  interface Window {
    /** gatehouse/client, as the page imported it. */
    gatehouse: typeof ClientModule
    /** The client a test created on the page. */
    auth: ClientModule.AuthClient
    /** Every state the client went through (from its subscribe). */
    states: ClientModule.SessionStatus[]
    /** A call's outcome as plain data (what it resolved to, or what it threw). */
    settle<T>(promise: Promise<T>): Promise<Outcome<T>>
  }
}

const CLIENT_ENTRY = fileURLToPath(new URL("../../../client/src/index.ts", import.meta.url))

export const PASSWORD_USER = { email: "pat@example.test", password: "correct horse battery staple" }

export interface ClientApp {
  app: express.Express
  adapter: ReturnType<typeof MemoryAdapter>
  smtp: SmtpSink
  /** Removes the bundle and stops the SMTP sink. */
  close(): Promise<void>
}

export async function clientApp(): Promise<ClientApp> {
  const smtp = await startSmtp()
  const adapter = MemoryAdapter()
  const bundleDir = await mkdtemp(join(tmpdir(), "gatehouse-client-"))
  await build({ entryPoints: { index: CLIENT_ENTRY }, bundle: true, format: "esm", splitting: true, outdir: bundleDir, platform: "browser", target: "es2022", logLevel: "silent" })

  const mailer = Nodemailer({ server: smtp.url, from: "auth@example.test" })
  const config = {
    secret: "e2e-secret-gatehouse-client-5e4d3c2b1a09f8e7",
    providers: [
      Credentials({
        credentials: { username: { label: "Username" }, password: { label: "Password", type: "password" } },
        authorize: async (fields: Partial<Record<string, unknown>>) =>
          fields.password === "pw" && typeof fields.username === "string" ? { id: `u-${fields.username}`, name: fields.username, email: `${fields.username}@example.test` } : null,
      }),
      Password({ email: mailer }),
      mailer,
      Passkey(),
      GitHub({ clientId: "client-e2e", clientSecret: "client-e2e-secret" }),
    ],
    adapter,
    session: { strategy: "jwt" as const },
    callbacks: {
      // The data of `updateSession({ theme })` kept in the token and shown in the session.
      jwt: ({ token, trigger, session }: { token: Record<string, unknown>; trigger?: string; session?: unknown }) => {
        const theme = (session as { theme?: unknown } | undefined)?.theme
        return trigger === "update" && typeof theme === "string" ? { ...token, theme } : token
      },
      session: ({ session, token }: { session: Record<string, unknown>; token?: Record<string, unknown> }) => (token?.theme ? { ...session, theme: token.theme } : session),
    },
    twoFactor: { issuer: "Gatehouse client E2E" },
    experimental: { enableWebAuthn: true },
    logLevel: "silent" as const,
  }

  // The Password user, confirmed, with the password account linked.
  const user = await adapter.createUser!({ id: "u-pat", email: PASSWORD_USER.email, emailVerified: new Date(), name: "Pat" } as never)
  await adapter.setPasswordHash!(user.id, await hashPassword(PASSWORD_USER.password))
  await adapter.linkAccount!({ provider: "password", type: "credentials", providerAccountId: user.id, userId: user.id } as never)

  const app = express()
  app.use("/auth", authRouter(config as never))
  app.use(authSession(config as never))
  app.use("/client", express.static(bundleDir))
  app.get("/app", (_req, res) => {
    res
      .type("html")
      .send(
        `<!doctype html><html lang="en"><title>Client</title><label>Username <input id="username" autocomplete="username webauthn"></label>` +
          `<script type="module">import * as gatehouse from "/client/index.js"; window.gatehouse = gatehouse</script></html>`,
      )
  })
  return {
    app,
    adapter,
    smtp,
    async close() {
      await smtp.close()
      await rm(bundleDir, { recursive: true, force: true })
    },
  }
}

/** Opens /app and waits for the module; `options` go to createAuthClient (as window.auth). */
export async function openApp(page: Page, origin: string, options: ClientModule.AuthClientOptions = {}): Promise<void> {
  await page.goto(`${origin}/app`)
  await page.waitForFunction(() => typeof window.gatehouse?.createAuthClient === "function")
  await page.evaluate((options) => {
    window.auth = window.gatehouse.createAuthClient(options)
    window.states = []
    window.auth.subscribe((state) => window.states.push(state.status))
    window.settle = <T,>(promise: Promise<T>) =>
      promise.then(
        (value): Outcome<T> => ({ value }),
        (error: { type?: string; status?: number; name?: string }): Outcome<T> => ({
          error: { type: String(error.type), status: Number(error.status), name: String(error.name), isClientError: error instanceof window.gatehouse.AuthClientError },
        }),
      )
  }, options)
}

/** What a call on the page threw, as plain data: `{ error: { type, status, name, isClientError } }`, or `{ value }`. */
export type Outcome<T> = { value: T; error?: undefined } | { value?: undefined; error: { type: string; status: number; name: string; isClientError: boolean } }
