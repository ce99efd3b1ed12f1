/**
 * Shared fixtures for the Auth.js interoperability suites: a private PostgreSQL schema holding
 * @auth/pg-adapter's tables, a small driver for @auth/core's `Auth()` (web Request in, web
 * Response out, with a cookie jar), and cookie helpers.
 */
import { randomBytes } from "node:crypto"
import pg from "pg"
import { Auth, type AuthConfig as AuthjsConfig } from "@auth/core"
import { parseSetCookie, type SetCookie } from "cookie"
import { DATABASES } from "../helpers/databases.js"

export const ORIGIN = "http://localhost:3000"

/**
 * @auth/pg-adapter's schema, as its documentation gives it (authjs.dev/getting-started/adapters/pg):
 * SERIAL ids, camelCase quoted columns, and the `verification_token` table.
 */
export const PG_ADAPTER_SCHEMA = `
CREATE TABLE verification_token (
  identifier TEXT NOT NULL,
  expires TIMESTAMPTZ NOT NULL,
  token TEXT NOT NULL,
  PRIMARY KEY (identifier, token)
);
CREATE TABLE accounts (
  id SERIAL,
  "userId" INTEGER NOT NULL,
  type VARCHAR(255) NOT NULL,
  provider VARCHAR(255) NOT NULL,
  "providerAccountId" VARCHAR(255) NOT NULL,
  refresh_token TEXT,
  access_token TEXT,
  expires_at BIGINT,
  id_token TEXT,
  scope TEXT,
  session_state TEXT,
  token_type TEXT,
  PRIMARY KEY (id)
);
CREATE TABLE sessions (
  id SERIAL,
  "userId" INTEGER NOT NULL,
  expires TIMESTAMPTZ NOT NULL,
  "sessionToken" VARCHAR(255) NOT NULL,
  PRIMARY KEY (id)
);
CREATE TABLE users (
  id SERIAL,
  name VARCHAR(255),
  email VARCHAR(255),
  "emailVerified" TIMESTAMPTZ,
  image TEXT,
  PRIMARY KEY (id)
);
`

export interface AuthjsSchema {
  /** A pool whose search_path is the private schema. */
  pool: pg.Pool
  schema: string
  close(): Promise<void>
}

/** Creates `authjs_<random>` with @auth/pg-adapter's tables; `close()` drops it. Retries the first connection. */
export async function openAuthjsSchema(): Promise<AuthjsSchema> {
  const schema = `authjs_${randomBytes(5).toString("hex")}`
  let lastError: unknown
  for (let attempt = 0; attempt < 40; attempt++) {
    const admin = new pg.Pool({ connectionString: DATABASES.postgres, max: 1 })
    try {
      await admin.query(`CREATE SCHEMA ${schema}`)
      await admin.end()
      lastError = undefined
      break
    } catch (error) {
      lastError = error
      await admin.end().catch(() => undefined)
      await new Promise((resume) => setTimeout(resume, 500))
    }
  }
  if (lastError) throw new Error(`postgres is not reachable at ${DATABASES.postgres}`, { cause: lastError })
  const pool = new pg.Pool({ connectionString: DATABASES.postgres, options: `-c search_path=${schema}`, max: 5 })
  await pool.query(PG_ADAPTER_SCHEMA)
  return {
    pool,
    schema,
    async close() {
      await pool.end()
      const admin = new pg.Pool({ connectionString: DATABASES.postgres, max: 1 })
      try {
        await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
      } finally {
        await admin.end()
      }
    },
  }
}

/** A logger for @auth/core that records errors (so a test can show them) and prints nothing. */
export function quietLogger() {
  const errors: Error[] = []
  return {
    errors,
    logger: {
      error: (error: Error) => {
        errors.push(error)
      },
      warn: () => undefined,
      debug: () => undefined,
    },
  }
}

/** Name → value, like a browser's cookie store for one origin (expired/empty values removed). */
export type Jar = Map<string, string>

export function cookieHeader(jar: Jar): string {
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ")
}

/** Applies Set-Cookie lines to the jar, as a browser would. */
export function absorb(jar: Jar, lines: readonly string[]): SetCookie[] {
  const parsed = lines.map((line) => parseSetCookie(line))
  for (const cookie of parsed) {
    const expired = cookie.maxAge === 0 || (cookie.expires !== undefined && cookie.expires.getTime() <= Date.now())
    if (!cookie.value || expired) jar.delete(cookie.name)
    else jar.set(cookie.name, cookie.value)
  }
  return parsed
}

/** Set-Cookie lines of a supertest response. */
export function setCookieLines(response: { headers: Record<string, unknown> }): string[] {
  const raw = response.headers["set-cookie"]
  return raw === undefined ? [] : Array.isArray(raw) ? raw.map(String) : [String(raw)]
}

export interface AuthjsCall {
  response: Response
  status: number
  location: string | null
  setCookies: SetCookie[]
  /** Parsed JSON body, when the response is JSON. */
  json: unknown
}

/**
 * Calls @auth/core's `Auth()` like a browser at ORIGIN would: the jar's cookies go in, its
 * Set-Cookie lines come back into the jar. `form` is sent as application/x-www-form-urlencoded.
 */
export async function callAuthjs(config: AuthjsConfig, path: string, jar: Jar, options: { form?: Record<string, string>; cookie?: string } = {}): Promise<AuthjsCall> {
  const headers = new Headers()
  const cookie = options.cookie ?? cookieHeader(jar)
  if (cookie) headers.set("cookie", cookie)
  let body: string | undefined
  if (options.form) {
    headers.set("content-type", "application/x-www-form-urlencoded")
    body = new URLSearchParams(options.form).toString()
  }
  const url = path.startsWith("http") ? path : `${ORIGIN}${path}`
  const response = await Auth(new Request(url, { method: options.form ? "POST" : "GET", headers, body }), config)
  const setCookies = absorb(jar, response.headers.getSetCookie())
  const text = await response.text()
  let json: unknown
  if ((response.headers.get("content-type") ?? "").includes("application/json")) json = text === "" ? undefined : JSON.parse(text)
  return { response, status: response.status, location: response.headers.get("location"), setCookies, json }
}
