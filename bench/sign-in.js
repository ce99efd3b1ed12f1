// Issue #36: sign-ins per second on one core. Each flow is what a browser sends to sign in, played
// by autocannon on every connection again and again, each time as a fresh browser (no cookies
// kept from the previous sign-in); the server is pinned to one core, and its CPU time per
// completed sign-in gives the rate one core sustains (1 s ÷ CPU per sign-in), beside the measured
// rate. Rounds interleave the flows; medians over rounds.
//
//   node bench/sign-in.js                  # 3 rounds, 1 s warm-up, 5 s measured
//   node bench/sign-in.js --only gatehouse-passkey,better-auth-email --rounds 1
//   node bench/sign-in.js --smoke          # one short round (CI)
//
// Gatehouse (bench/servers/gatehouse-signin.js): credentials; the Password provider (scrypt, the
// default cost); a magic link (request, the link, confirm); a passkey (options, then the signed
// assertion). better-auth (bench/servers/better-auth.js): POST /api/auth/sign-in/email, its
// default scrypt. Results: bench/results/sign-in-latest.{json,md} and a dated copy.
import { mkdirSync, writeFileSync } from "node:fs"
import { cpus, tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { parseArgs } from "node:util"
import { createTally, load } from "./lib/load.js"
import { headerValues } from "./lib/http.js"
import { pinRunner, startServer } from "./lib/process.js"
import { SoftAuthenticator } from "./lib/soft-authenticator.js"

const { values: args } = parseArgs({
  options: {
    smoke: { type: "boolean", default: false },
    rounds: { type: "string" },
    duration: { type: "string" },
    warmup: { type: "string" },
    connections: { type: "string", default: "10" },
    only: { type: "string" },
    out: { type: "string" },
  },
})
const smoke = args.smoke
const settings = {
  rounds: Number(args.rounds ?? (smoke ? 1 : 3)),
  duration: Number(args.duration ?? (smoke ? 1 : 5)),
  warmup: Number(args.warmup ?? (smoke ? 0.3 : 1)),
  connections: Number(args.connections),
}
const here = (path) => fileURLToPath(new URL(path, import.meta.url))
const outDir = args.out ?? (smoke ? join(tmpdir(), "gatehouse-bench") : here("./results"))
const log = (line) => process.stderr.write(`${new Date().toISOString().slice(11, 19)} ${line}\n`)

const EMAIL = "bench@example.com"
const PASSWORD = "bench password of good length"
const SESSION = "authjs.session-token"
const FORM = { "content-type": "application/x-www-form-urlencoded" }

/**
 * Turns `steps` into autocannon requests that keep a cookie jar per connection, emptied when a
 * flow starts. A step: { method, path(ctx), headers, body(ctx), after(ctx, status, body, headers) }
 * where `after` returns a failure reason or nothing; a step whose `path` or `body` returns null
 * skips the rest of the flow (its failure was counted).
 */
function flow(steps, tally) {
  return steps.map((step, index) => ({
    method: step.method,
    path: typeof step.path === "string" ? step.path : "/",
    setupRequest(request, context) {
      if (index === 0) context.jar = new Map()
      else if (context.broken) return null
      const path = typeof step.path === "function" ? step.path(context) : step.path
      const body = step.body?.(context)
      if (path === null || body === null) return null
      const cookie = [...context.jar].map(([name, value]) => `${name}=${value}`).join("; ")
      return { ...request, path, headers: { ...step.headers, ...(cookie && { cookie }) }, ...(body !== undefined && { body }) }
    },
    onResponse(status, body, context, headers) {
      for (const line of headerValues(headers, "set-cookie")) {
        const pair = line.split(";")[0]
        const at = pair.indexOf("=")
        const value = pair.slice(at + 1)
        if (value && !/max-age=0/i.test(line)) context.jar.set(pair.slice(0, at), value)
        else context.jar.delete(pair.slice(0, at))
      }
      const failed = step.after?.(context, status, body, headers)
      context.broken = Boolean(failed)
      if (failed) tally?.fail(failed)
    },
  }))
}

const csrfStep = {
  method: "GET",
  path: "/auth/csrf",
  after: (ctx, status, body) => {
    if (status !== 200) return `csrf ${status}`
    ctx.csrfToken = JSON.parse(body).csrfToken
  },
}

/** The last step of a Gatehouse sign-in: a 302 to the callback URL that sets the session cookie. */
const signedIn = (ctx, status, _body, headers) => {
  const location = headerValues(headers, "location")[0] ?? ""
  if (status !== 302 || !location.endsWith("/protected")) return `${status} ${location}`
  if (!headerValues(headers, "set-cookie").some((line) => line.startsWith(`${SESSION}=`) && !line.startsWith(`${SESSION}=;`))) return "no session cookie"
}

const formPost = (path, fields) => ({ method: "POST", path, headers: FORM, body: (ctx) => new URLSearchParams({ csrfToken: ctx.csrfToken, callbackUrl: "/protected", ...fields(ctx) }).toString(), after: signedIn })

let connection = 0
const GATEHOUSE = here("./servers/gatehouse-signin.js")
/** The soft passkey, made for the server's origin when it is registered. */
let passkey

const scenarios = [
  {
    id: "gatehouse-credentials",
    name: "Gatehouse credentials (authorize compares a string)",
    server: GATEHOUSE,
    steps: () => [csrfStep, formPost("/auth/callback/credentials", () => ({ email: EMAIL, password: "bench" }))],
  },
  {
    id: "gatehouse-password",
    name: "Gatehouse Password provider (scrypt, default cost)",
    server: GATEHOUSE,
    // scrypt's memory (128 MiB a hash at the default cost): a few at a time, as on a real server.
    connections: 2,
    steps: () => [csrfStep, formPost("/auth/callback/password", () => ({ email: EMAIL, password: PASSWORD }))],
  },
  {
    id: "gatehouse-magic-link",
    name: "Gatehouse magic link (request, then the link)",
    server: GATEHOUSE,
    steps: () => [
      csrfStep,
      {
        method: "POST",
        path: "/auth/signin/email",
        headers: FORM,
        body: (ctx) => {
          // One address per connection: its last link is its own.
          ctx.email ??= `link${connection++}@example.com`
          return new URLSearchParams({ csrfToken: ctx.csrfToken, email: ctx.email, callbackUrl: "/protected" }).toString()
        },
        after: (_ctx, status, _body, headers) => {
          const location = headerValues(headers, "location")[0] ?? ""
          if (status !== 302 || !location.includes("/auth/verify-request")) return `request ${status} ${location}`
        },
      },
      {
        method: "GET",
        path: (ctx) => `/__bench/last-link?email=${encodeURIComponent(ctx.email)}`,
              after: (ctx, status, body) => {
          if (status !== 200) return `last-link ${status}`
          ctx.link = new URL(JSON.parse(body).link)
        },
      },
      // The link shows a page with one button (scanner-safe); the button's POST uses the token.
      {
        method: "GET",
        path: (ctx) => `${ctx.link.pathname}${ctx.link.search}`,
              after: (_ctx, status) => (status === 200 ? undefined : `link page ${status}`),
      },
      formPost("/auth/callback/email", (ctx) => ({ token: ctx.link.searchParams.get("token"), email: ctx.link.searchParams.get("email") })),
    ],
  },
  {
    id: "gatehouse-passkey",
    name: "Gatehouse passkey (options, then the assertion)",
    server: GATEHOUSE,
    prepare: registerPasskey,
    steps: () => [
      {
        method: "GET",
        path: "/auth/webauthn-options/passkey?action=authenticate",
        headers: { accept: "application/json" },
        after: (ctx, status, body) => {
          if (status !== 200) return `options ${status}`
          ctx.options = JSON.parse(body).options
        },
      },
      csrfStep,
      formPost("/auth/callback/passkey", (ctx) => ({ action: "authenticate", data: JSON.stringify(passkey.authenticate(ctx.options)) })),
    ],
  },
  {
    id: "better-auth-email",
    name: "better-auth email and password (scrypt, its default cost)",
    library: "better-auth",
    server: here("./servers/better-auth.js"),
    connections: 2,
    env: { BENCH_BA_SCHEMA: `bench_ba_${process.pid.toString(36)}_signin` },
    prepare: signUpBetterAuth,
    steps: ({ origin }) => [
      {
        method: "POST",
        path: "/api/auth/sign-in/email",
        headers: { "content-type": "application/json", origin },
        body: () => JSON.stringify({ email: EMAIL, password: PASSWORD }),
        after: (_ctx, status, _body, headers) => {
          if (status !== 200) return `sign-in ${status}`
          if (!headerValues(headers, "set-cookie").some((line) => line.startsWith("better-auth.session_token="))) return "no session cookie"
        },
      },
    ],
  },
]

/**
 * Registers the soft passkey through Gatehouse's own flow, for the bench user signed in with its
 * credentials (a site with magic links creates passkeys for proven addresses only): options for
 * `register`, then the attestation.
 */
async function registerPasskey({ origin }) {
  passkey = new SoftAuthenticator({ rpId: new URL(origin).hostname, origin })
  const jar = new Map()
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ")
  const send = async (path, init = {}) => {
    const response = await fetch(`${origin}${path}`, { ...init, headers: { ...init.headers, cookie: cookie() }, redirect: "manual" })
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(";")[0]
      jar.set(pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1))
    }
    return response
  }
  const post = async (path, fields) => {
    const { csrfToken } = await (await send("/auth/csrf")).json()
    return send(path, { method: "POST", headers: FORM, body: new URLSearchParams({ csrfToken, callbackUrl: "/protected", ...fields }).toString() })
  }
  const signedIn = await post("/auth/callback/credentials", { email: EMAIL, password: "bench" })
  if (signedIn.status !== 302) throw new Error(`credentials sign-in answered ${signedIn.status}`)
  const options = await (await send("/auth/webauthn-options/passkey?action=register", { headers: { accept: "application/json" } })).json()
  if (options.action !== "register") throw new Error(`webauthn-options answered ${JSON.stringify(options).slice(0, 300)}`)
  const response = await post("/auth/callback/passkey", { action: "register", data: JSON.stringify(passkey.register(options.options)) })
  const location = response.headers.get("location") ?? ""
  if (response.status !== 302 || !location.endsWith("/protected")) throw new Error(`passkey registration answered ${response.status} ${location}`)
}

/** Signs the user up through better-auth's own endpoint (its scrypt hash). */
async function signUpBetterAuth({ origin }) {
  const response = await fetch(`${origin}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin },
    body: JSON.stringify({ email: EMAIL, password: PASSWORD, name: "Bench User" }),
  })
  if (response.status !== 200) throw new Error(`better-auth sign-up answered ${response.status} ${(await response.text()).slice(0, 200)}`)
}

/** Plays `steps` once with fetch through the same hooks, so a broken flow fails before the load. */
async function playOnce(origin, steps) {
  const tally = createTally()
  const requests = flow(steps, tally)
  const context = {}
  for (const request of requests) {
    const sent = request.setupRequest({ method: request.method, path: request.path, headers: {} }, context)
    if (!sent) throw new Error(`the flow stopped before ${request.path}: ${JSON.stringify(tally.reasons)}`)
    const response = await fetch(`${origin}${sent.path}`, { method: sent.method, headers: sent.headers, body: sent.body, redirect: "manual" })
    const headers = {}
    for (const [name, value] of response.headers) if (name !== "set-cookie") headers[name] = value
    headers["set-cookie"] = response.headers.getSetCookie()
    request.onResponse(response.status, await response.text(), context, headers)
  }
  if (tally.failures) throw new Error(`the sign-in failed: ${JSON.stringify(tally.reasons)}`)
}

let chosen = scenarios
if (args.only) {
  const wanted = new Set(args.only.split(","))
  chosen = scenarios.filter((scenario) => wanted.has(scenario.id))
  if (chosen.length !== wanted.size) throw new Error(`unknown sign-in scenario; known: ${scenarios.map((s) => s.id).join(", ")}`)
}

const pinned = pinRunner()
const rounds = []
const failures = []
for (let round = 1; round <= settings.rounds; round++) {
  for (const scenario of chosen) {
    log(`round ${round}/${settings.rounds}: ${scenario.id}`)
    const server = await startServer(scenario.server, scenario.env ?? {})
    try {
      await scenario.prepare?.({ origin: server.origin })
      const steps = scenario.steps({ origin: server.origin })
      await playOnce(server.origin, steps)
      const tally = createTally()
      const measured = await load(server, flow(steps, tally), { ...settings, connections: scenario.connections ?? settings.connections, okStatus: [200, 302], timeout: 60 }, tally)
      const signIns = measured.total / steps.length
      rounds.push({ round, id: scenario.id, ...measured, signInsPerSecond: measured.requestsPerSecond / steps.length, cpuPerSignIn: measured.cpuPerRequest * steps.length, signIns, requestsPerSignIn: steps.length })
      log(`  ${measured.total} requests, ${measured.bad} bad, ${measured.errors} errors`)
      if (measured.bad || measured.errors) log(`  ${measured.bad} failed, ${measured.errors} errors ${JSON.stringify(measured.failures ?? {})}`)
    } catch (error) {
      log(`  failed: ${error.stack ?? error}`)
      failures.push({ round, id: scenario.id, failed: String(error.message ?? error).split("\n")[0] })
    } finally {
      await server.stop()
    }
  }
}

const median = (values) => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b)
  if (!sorted.length) return NaN
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
const summary = chosen.map((scenario) => {
  const mine = rounds.filter((entry) => entry.id === scenario.id)
  const cpuPerSignIn = median(mine.map((entry) => entry.cpuPerSignIn))
  return {
    id: scenario.id,
    name: scenario.name,
    rounds: mine.length,
    requestsPerSignIn: mine[0]?.requestsPerSignIn,
    signInsPerSecond: median(mine.map((entry) => entry.signInsPerSecond)),
    cpuPerSignIn,
    perCoreSecond: 1e6 / cpuPerSignIn,
    bad: mine.reduce((sum, entry) => sum + entry.bad, 0),
    errors: mine.reduce((sum, entry) => sum + entry.errors, 0),
  }
})

const date = new Date().toISOString()
const fixed = (value, digits) => (Number.isFinite(value) ? value.toFixed(digits) : "–")
const markdown = [
  `Measured ${date.slice(0, 10)} on ${cpus().length} × ${cpus()[0]?.model ?? "unknown"}, Node ${process.version} (${pinned ? "load generator on core 0, the server on core 1" : "not pinned"}); ${settings.rounds} interleaved round(s), ${settings.warmup} s warm-up + ${settings.duration} s measured, ${settings.connections} connections (2 for the flows that hash a password); medians over rounds.`,
  "",
  "| sign-in | requests | sign-ins/s measured | server CPU ms per sign-in | sign-ins per second of one core | failed |",
  "|---|---:|---:|---:|---:|---:|",
  ...summary.map((row) => `| ${row.name} | ${row.requestsPerSignIn ?? "–"} | ${fixed(row.signInsPerSecond, 1)} | ${fixed(row.cpuPerSignIn / 1000, 2)} | ${fixed(row.perCoreSecond, 1)} | ${row.bad + row.errors} |`),
  ...(failures.length ? ["", `Failed: ${failures.map((entry) => `${entry.id} (round ${entry.round}): ${entry.failed}`).join("; ")}.`] : []),
].join("\n")
console.log(`\n${markdown}\n`)
mkdirSync(outDir, { recursive: true })
const json = `${JSON.stringify({ date, settings, summary, rounds, failures }, null, 2)}\n`
for (const name of ["sign-in-latest", `sign-in-${date.slice(0, 19).replace(/[:T]/g, "-")}`]) {
  writeFileSync(join(outDir, `${name}.json`), json)
  writeFileSync(join(outDir, `${name}.md`), `${markdown}\n`)
}
log(`results written to ${outDir}`)
process.exit(failures.length ? 1 : 0)
