/**
 * The published types keep every capability's part. A capability adds to public types from its
 * own folder by declaration merging (its actions to `AuthAction`, its options to `AuthConfig`, its
 * events to `EventCallbacks`, its adapter methods to `Adapter`, its error types to `ErrorType`,
 * its texts to the `messages` option); an app compiling against the published declaration files
 * (dist/) sees those only if the entry points' declarations reach the files that declare them.
 * The sources type-check either way, so this once broke unseen (`AuthAction` lost "two-factor"
 * and "signup" in dist/).
 *
 * The declarations are emitted fresh (never into dist/) into an installed copy of Gatehouse
 * (package.json as published, its `exports` pointing at dist/), and a consumer per entry point
 * (consumer-sources.ts, written from the capabilities at run time) is type-checked against it.
 */
import { execFile } from "node:child_process"
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { CAPABILITY_ACTIONS, CAPABILITY_ADAPTER_METHODS, CAPABILITY_EVENTS, CAPABILITY_MESSAGE_KEYS, CAPABILITY_PAGES, AUDIT_TYPES, consumerSources } from "./consumer-sources.js"

const ROOT = fileURLToPath(new URL("../..", import.meta.url))
const TSC = join(ROOT, "node_modules", "typescript", "bin", "tsc")

interface Run {
  code: number
  output: string
}

function tsc(args: string[], cwd = ROOT): Promise<Run> {
  return new Promise((done) => {
    execFile(process.execPath, [TSC, ...args], { cwd, env: { ...process.env, NODE_OPTIONS: "" }, timeout: 170_000 }, (error, stdout, stderr) => {
      done({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, output: `${stdout}${stderr}` })
    })
  })
}

let consumer: string

beforeAll(async () => {
  consumer = mkdtempSync(join(tmpdir(), "gatehouse-types-"))
  // node_modules/gatehouse: what `npm pack` ships for types (package.json and dist/), its
  // dependencies' types in its own node_modules.
  const installed = join(consumer, "node_modules", "gatehouse")
  mkdirSync(installed, { recursive: true })
  cpSync(join(ROOT, "package.json"), join(installed, "package.json"))
  symlinkSync(join(ROOT, "node_modules"), join(installed, "node_modules"), "dir")
  writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "types-consumer", private: true, type: "module" }))
  const emit = await tsc(["-p", join(ROOT, "tsconfig.build.json"), "--declaration", "--emitDeclarationOnly", "--outDir", join(installed, "dist")])
  if (emit.code !== 0) throw new Error(`emitting the declarations failed (${emit.code}):\n${emit.output}`)
}, 180_000)

afterAll(() => {
  if (consumer) rmSync(consumer, { recursive: true, force: true })
})

test("the consumers are written from real lists (the check cannot pass on empty ones)", () => {
  expect(CAPABILITY_ACTIONS).toEqual(expect.arrayContaining(["two-factor", "signup", "sessions", "account"]))
  expect(CAPABILITY_ADAPTER_METHODS).toEqual(expect.arrayContaining(["getTwoFactor", "getPasswordHash"]))
  expect(CAPABILITY_EVENTS).toEqual(expect.arrayContaining(["twoFactorEnabled", "deleteUser"]))
  expect(CAPABILITY_MESSAGE_KEYS).toContain("twoFactor.heading")
  expect(CAPABILITY_PAGES).toEqual(expect.arrayContaining(["signUp", "account"]))
  expect(AUDIT_TYPES).toEqual(expect.arrayContaining(["two_factor.enabled", "password.changed", "signin"]))
})

test.each(Object.entries(consumerSources()))("a consumer of %s type-checks against the published declarations", async (entry, source) => {
  const name = entry.replace("/", "-")
  writeFileSync(join(consumer, `${name}.ts`), source)
  const compilerOptions = {
    module: "nodenext",
    moduleResolution: "nodenext",
    target: "es2022",
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: ["node"],
    typeRoots: [join(ROOT, "node_modules", "@types")],
  }
  writeFileSync(join(consumer, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions, files: [`${name}.ts`] }))
  const result = await tsc(["-p", `tsconfig.${name}.json`], consumer)
  // The output first: on failure it names each line (and so each action, type or key) that broke.
  expect(result.output).toBe("")
  expect(result.code).toBe(0)
}, 60_000)
