/** Apps for the service-token suites (issue #31): credentials sign-in, a memory adapter, the option given. */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import express, { type Express } from "express"
import request from "supertest"
import { MemoryAdapter } from "../../adapters/memory/index.js"
import { authRouter } from "../../lib/index.js"
import Credentials from "../../lib/providers/credentials.js"
import type { AuthConfig } from "../../lib/types.js"
import { SECRET } from "../helpers/app.js"
import { freshName, signIn } from "../two-factor/support.js"

export { freshName, signIn }

export function tokenConfig(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return {
    secret: SECRET,
    logLevel: "silent",
    trustHost: true,
    adapter: MemoryAdapter(),
    providers: [
      Credentials({
        credentials: { username: {}, password: { type: "password" } },
        authorize: async (fields) => (fields.password === "pw" && typeof fields.username === "string" ? { id: `u-${fields.username}`, name: fields.username, email: `${fields.username}@example.test` } : null),
      }),
    ],
    serviceTokens: true,
    ...overrides,
  }
}

export function tokenApp(config: AuthConfig): Express {
  const app = express()
  app.use("/auth", authRouter(config))
  return app
}

/** A signed-in browser of a fresh user. */
export async function signedIn(app: Express, username = freshName("st")) {
  const agent = request.agent(app)
  await signIn(agent, username)
  return { agent, username, userId: `u-${username}` }
}

/** The app on a real port of 127.0.0.1, for verifiers that fetch the JWKS. */
export async function listen(app: Express): Promise<{ server: Server; origin: string; close: () => Promise<void> }> {
  const server = createServer(app)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { server, origin, close: () => new Promise((resolve) => server.close(() => resolve())) }
}

/** Every timer stays real; only the clock (Date) moves. */
export const REAL_TIMERS = ["hrtime", "nextTick", "performance", "queueMicrotask", "requestAnimationFrame", "cancelAnimationFrame", "requestIdleCallback", "cancelIdleCallback", "setImmediate", "clearImmediate", "setInterval", "clearInterval", "setTimeout", "clearTimeout"] as const
