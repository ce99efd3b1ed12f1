/**
 * The observability example as it runs: `node examples/observability/index.js` (against the built
 * package, rebuilt first when a source is newer), signed into with a wrong and then the right
 * password. Its console shows Gatehouse's spans under the Express and HTTP server spans of the
 * instrumentations, in the same trace; the metrics, Gatehouse's among them; pino JSON log lines
 * carrying the trace id of the failed sign-in's span; and no password, cookie, token or address.
 */
import { jest } from "@jest/globals"
import { spawn, type ChildProcess } from "node:child_process"
import { join } from "node:path"
import { ensureBuilt, ROOT } from "../helpers/build.js"

jest.setTimeout(120_000)

interface SpanDump {
  name: string
  id: string
  traceId: string
  parent?: string
  scope: string
  kind: number
  text: string
}

/** The span and metric dumps of the console exporters (util.inspect output, one `{ ... }` block each). */
function blocks(output: string): string[] {
  const found: string[] = []
  let current: string[] | undefined
  for (const line of output.split("\n")) {
    if (line === "{") current = [line]
    else if (current) {
      current.push(line)
      if (line === "}") {
        found.push(current.join("\n"))
        current = undefined
      }
    }
  }
  return found
}

function spansIn(output: string): SpanDump[] {
  return blocks(output)
    .filter((text) => /^ {2}instrumentationScope:/m.test(text))
    .map((text) => ({
      name: /^ {2}name: '([^']*)'/m.exec(text)![1]!,
      id: /^ {2}id: '([0-9a-f]+)'/m.exec(text)![1]!,
      traceId: /^ {2}traceId: '([0-9a-f]+)'/m.exec(text)![1]!,
      parent: /^ {2}parentSpanContext: \{[^}]*?spanId: '([0-9a-f]+)'/m.exec(text)?.[1],
      scope: /instrumentationScope: \{\s*name: '([^']+)'/.exec(text)![1]!,
      kind: Number(/^ {2}kind: (\d+)/m.exec(text)![1]),
      text,
    }))
}

let child: ChildProcess
let output = ""
let origin = ""

beforeAll(async () => {
  await ensureBuilt()
  child = spawn(process.execPath, [join(ROOT, "examples", "observability", "index.js")], {
    cwd: ROOT,
    env: { ...process.env, NODE_OPTIONS: "", PORT: "0", OTEL_METRIC_EXPORT_INTERVAL: "300", NODE_ENV: "development" },
    stdio: ["ignore", "pipe", "pipe"],
  })
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
  for (let waited = 0; !origin && waited < 60_000; waited += 100) {
    const port = /localhost:(\d+)/.exec(output)?.[1]
    if (port) origin = `http://127.0.0.1:${port}`
    else await new Promise((resume) => setTimeout(resume, 100))
  }
  if (!origin) throw new Error(`the example did not start:\n${output}`)
}, 180_000)

afterAll(async () => {
  if (child.exitCode === null) {
    const exited = new Promise((done) => child.once("exit", done))
    child.kill("SIGTERM")
    await exited
  }
})

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; waited < 15_000; waited += 100) {
    if (condition()) return
    await new Promise((resume) => setTimeout(resume, 100))
  }
  throw new Error(`${what} did not appear in the example's output:\n${output}`)
}

test("a wrong and a right password, then the dashboard: traces under the HTTP server span, metrics and pino lines on the console", async () => {
  const csrf = await fetch(`${origin}/auth/csrf`)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const csrfCookie = csrf.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ")
  const post = (password: string) =>
    fetch(`${origin}/auth/callback/credentials`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie },
      body: new URLSearchParams({ csrfToken, username: "demo", password }),
    })
  const refused = await post("not-the-demo-password")
  expect(refused.headers.get("location")).toContain("error=CredentialsSignin")
  const signedIn = await post("demo")
  expect(signedIn.status).toBe(302)
  const session = signedIn.headers.getSetCookie().find((line) => line.startsWith("authjs.session-token="))!.split(";")[0]!
  const dashboard = await fetch(`${origin}/dashboard`, { headers: { cookie: session } })
  expect(await dashboard.text()).toContain("Dashboard of Demo User")

  await until(() => spansIn(output).filter((span) => span.name === "gatehouse.callback").length === 2, "two gatehouse.callback spans")
  await until(() => output.includes("name: 'gatehouse.signin.attempts'") && output.includes("name: 'gatehouse.session.reads'"), "Gatehouse's metrics")

  const spans = spansIn(output)
  const byId = new Map(spans.map((span) => [span.id, span]))
  const [failed, succeeded] = spans.filter((span) => span.name === "gatehouse.callback")
  expect(failed!.text).toContain("'error.type': 'CredentialsSignin'")
  expect(failed!.text).toContain("status: { code: 2, message: 'CredentialsSignin' }")
  expect(succeeded!.text).toContain("'gatehouse.outcome': 'success'")
  for (const callback of [failed!, succeeded!]) {
    expect(callback.scope).toBe("gatehouse")
    // Up the parents: the Express router's span, then the HTTP server span (kind 1), one trace.
    const chain: SpanDump[] = []
    for (let at = byId.get(callback.parent ?? ""); at; at = byId.get(at.parent ?? "")) chain.push(at)
    expect(chain.map((span) => span.scope)).toEqual(expect.arrayContaining(["@opentelemetry/instrumentation-express", "@opentelemetry/instrumentation-http"]))
    const server = chain.at(-1)!
    expect(server).toMatchObject({ scope: "@opentelemetry/instrumentation-http", kind: 1, parent: undefined, traceId: callback.traceId })
    expect(server.text).toContain("'url.path': '/auth/callback/credentials'")
  }

  // pino: one JSON line for the refused sign-in, with the request id and the span's trace id, at
  // info level: a wrong password is ordinary traffic, not an error (issue #26).
  const logged = output.split("\n").filter((line) => line.startsWith('{"level"')).map((line) => JSON.parse(line) as Record<string, unknown>)
  const refusal = logged.find((line) => line.type === "CredentialsSignin")
  expect(refusal).toMatchObject({ level: 30, trace_id: failed!.traceId, requestId: expect.any(String) })

  for (const secret of ["not-the-demo-password", csrfToken, session.split("=")[1]!, "demo@example.com"]) expect(output).not.toContain(secret)
})
