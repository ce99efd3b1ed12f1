/**
 * Gatehouse from CommonJS, against the built package (`dist/`, rebuilt first when a source is
 * newer), resolved through its own `exports` as an installed copy would be:
 * - at run time: `node consumer.cjs` require()s the entry points (Node >= 20.19 loads the ES
 *   modules through require()), builds an Express app and serves one CSRF request;
 * - for types: `tsc -p fixture` checks a `.cts` consumer (`module: "nodenext"`), and the same file
 *   as a `.ts` in a separate `"type": "commonjs"` package with Gatehouse (package.json and dist/,
 *   as published) in its node_modules.
 */
import { execFile } from "node:child_process"
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { ensureBuilt } from "../helpers/build.js"

const ROOT = fileURLToPath(new URL("../..", import.meta.url))
const HERE = join(ROOT, "__tests__", "cjs")
const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc")

interface Run {
  code: number
  stdout: string
  stderr: string
}

function run(file: string, args: string[], cwd = ROOT): Promise<Run> {
  return new Promise((done) => {
    execFile(file, args, { cwd, env: { ...process.env, NODE_OPTIONS: "" }, timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === "number" ? error.code : 1) : 0
      done({ code, stdout: String(stdout), stderr: String(stderr) })
    })
  })
}

beforeAll(ensureBuilt, 180_000)

test("require() of gatehouse and its subpaths works in a plain CommonJS script, and an Express app answers /auth/csrf", async () => {
  const result = await run(process.execPath, [join(HERE, "consumer.cjs")])
  if (result.code !== 0) throw new Error(`consumer.cjs exited with ${result.code}:\n${result.stdout}${result.stderr}`)
  const output = JSON.parse(result.stdout.trim().split("\n").pop()!)
  expect(output).toEqual({
    status: 200,
    csrfToken: expect.stringMatching(/^[0-9a-f]{64}$/),
    cookie: ["authjs.csrf-token"],
    exports: {
      gatehouse: ["authRouter", "authSession", "requireAuth", "getSession"],
      jwt: ["encode", "decode", "getToken"],
      core: "function",
      errors: "function",
      stores: "function",
    },
    jwtRoundTrip: "u1",
    // What docs/commonjs.md says: require() of a provider gives its module, the factory is `.default`.
    credentialsRequire: { namespace: "object", default: "function" },
  })
}, 60_000)

test("a .cts consumer type-checks against the built declarations (module: nodenext)", async () => {
  const result = await run(process.execPath, [TSC, "-p", join(HERE, "fixture")])
  expect(`${result.stdout}${result.stderr}`).toBe("")
  expect(result.code).toBe(0)
}, 60_000)

describe('an installed copy, from a separate "type": "commonjs" package', () => {
  let project: string

  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), "gatehouse-cjs-"))
    // node_modules/gatehouse holds what `npm pack` ships for types (package.json and dist/; the
    // sources are not published), its dependencies in its own node_modules.
    const installed = join(project, "node_modules", "gatehouse")
    mkdirSync(installed, { recursive: true })
    cpSync(join(ROOT, "package.json"), join(installed, "package.json"))
    symlinkSync(join(ROOT, "dist"), join(installed, "dist"), "dir")
    symlinkSync(join(ROOT, "node_modules"), join(installed, "node_modules"), "dir")
    symlinkSync(join(ROOT, "node_modules", "@types"), join(project, "node_modules", "@types"), "dir")
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "cjs-consumer", private: true, type: "commonjs" }))
    cpSync(join(HERE, "fixture", "consumer.cts"), join(project, "index.ts"))
  })

  afterAll(() => rmSync(project, { recursive: true, force: true }))

  function compile(options: Record<string, unknown>) {
    const base = { target: "es2022", strict: true, noEmit: true, skipLibCheck: true, types: ["node"] }
    writeFileSync(join(project, "tsconfig.json"), JSON.stringify({ compilerOptions: { ...base, ...options }, files: ["index.ts"] }))
    return run(process.execPath, [TSC, "-p", project], project)
  }

  test.each([{ module: "nodenext" }, { module: "node20" }])("type-checks with %j", async (options) => {
    const result = await compile(options)
    expect(`${result.stdout}${result.stderr}`).toBe("")
    expect(result.code).toBe(0)
  }, 60_000)

  test('moduleResolution "node10" (module commonjs): the subpaths have types only with package.json typesVersions', async () => {
    const result = await compile({ module: "commonjs", moduleResolution: "node10", esModuleInterop: true })
    const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { typesVersions?: unknown }
    if (manifest.typesVersions) {
      expect(`${result.stdout}${result.stderr}`).toBe("")
    } else {
      // node10 ignores `exports`: the root entry has types (top-level "types"), the subpaths do not.
      const missing = [...result.stdout.matchAll(/Cannot find module '([^']+)'/g)].map((match) => match[1])
      expect(missing).toEqual(["gatehouse/providers/credentials", "gatehouse/adapters/memory", "gatehouse/jwt", "gatehouse/errors", "gatehouse/core"])
    }
  }, 60_000)
})
