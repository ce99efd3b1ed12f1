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
 *
 * The consumers see only what an app would install: Gatehouse with its `dependencies`, @types/node,
 * and the peer packages whose entry points they import (mongodb for gatehouse/adapters/mongodb).
 * None of Gatehouse's devDependencies (@types/nodemailer, @types/pg, ...) is reachable, and
 * `skipLibCheck` is off, so a published declaration that needs one fails here. One more consumer
 * imports every entry point the `exports` map offers (each file a wildcard matches).
 */
import { execFile } from "node:child_process"
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { CAPABILITY_ACTIONS, CAPABILITY_ADAPTER_METHODS, CAPABILITY_EVENTS, CAPABILITY_MESSAGE_KEYS, CAPABILITY_PAGES, AUDIT_TYPES, consumerSources, everyEntryPointSource } from "./consumer-sources.js"

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

interface Manifest {
  dependencies: Record<string, string>
  exports: Record<string, string | { types: string }>
}

const MANIFEST = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Manifest

/**
 * What an app installs beside Gatehouse to import every entry point: types for Node, and the peers
 * those entry points name (mongodb for gatehouse/adapters/mongodb, React's types for gatehouse/react).
 */
const APP_INSTALLS = ["@types/node", "mongodb", "@types/react"]

/** `<dir>/node_modules/<name>` -> the project's copy (the name may be scoped). */
function link(dir: string, name: string): void {
  const target = join(dir, "node_modules", name)
  mkdirSync(dirname(target), { recursive: true })
  symlinkSync(join(ROOT, "node_modules", name), target, "dir")
}

/**
 * The subpaths the `exports` map offers, as an app would import them: each plain key, and for a
 * wildcard key each file of the emitted declarations it matches (one path segment for `*`).
 */
function entryPoints(installed: string): string[] {
  return Object.entries(MANIFEST.exports).flatMap(([key, target]) => {
    if (typeof target === "string") return []
    const name = `gatehouse${key.slice(1)}`
    if (!key.includes("*")) return [name]
    const [prefix, suffix] = target.types.split("*") as [string, string]
    const dir = join(installed, prefix)
    const candidates = suffix.startsWith("/") ? readdirSync(dir).filter((entry) => existsSync(join(dir, entry + suffix))) : readdirSync(dir).filter((entry) => entry.endsWith(suffix)).map((entry) => entry.slice(0, -suffix.length))
    return candidates.sort().map((match) => name.replace("*", match))
  })
}

let consumer: string
let installed: string

beforeAll(async () => {
  consumer = mkdtempSync(join(tmpdir(), "gatehouse-types-"))
  // node_modules/gatehouse: what `npm pack` ships for types (package.json and dist/) and, in its
  // own node_modules, its `dependencies` alone (never the project's devDependencies).
  installed = join(consumer, "node_modules", "gatehouse")
  mkdirSync(installed, { recursive: true })
  cpSync(join(ROOT, "package.json"), join(installed, "package.json"))
  for (const name of Object.keys(MANIFEST.dependencies)) link(installed, name)
  for (const name of APP_INSTALLS) link(consumer, name)
  writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "types-consumer", private: true, type: "module" }))
  const emit = await tsc(["-p", join(ROOT, "tsconfig.build.json"), "--declaration", "--emitDeclarationOnly", "--outDir", join(installed, "dist")])
  if (emit.code !== 0) throw new Error(`emitting the declarations failed (${emit.code}):\n${emit.output}`)
  // The browser client (gatehouse/client, gatehouse/react) is compiled on its own, into dist/client.
  const client = await tsc(["-p", join(ROOT, "tsconfig.client.json"), "--declaration", "--emitDeclarationOnly", "--outDir", join(installed, "dist", "client")])
  if (client.code !== 0) throw new Error(`emitting the client's declarations failed (${client.code}):\n${client.output}`)
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

/** Type-checks `source` as `<name>.ts` in the consumer: strict, declarations of every package checked. */
async function check(name: string, source: string): Promise<Run> {
  writeFileSync(join(consumer, `${name}.ts`), source)
  const compilerOptions = {
    module: "nodenext",
    moduleResolution: "nodenext",
    target: "es2022",
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    types: ["node"],
    typeRoots: [join(consumer, "node_modules", "@types")],
  }
  writeFileSync(join(consumer, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions, files: [`${name}.ts`] }))
  return tsc(["-p", `tsconfig.${name}.json`], consumer)
}

test.each(Object.entries(consumerSources()))("a consumer of %s type-checks against the published declarations", async (entry, source) => {
  const result = await check(entry.replace("/", "-"), source)
  // The output first: on failure it names each line (and so each action, type or key) that broke.
  expect(result.output).toBe("")
  expect(result.code).toBe(0)
}, 90_000)

test("a consumer importing every entry point type-checks with skipLibCheck off and none of Gatehouse's devDependencies installed", async () => {
  const entries = entryPoints(installed)
  // The list is read from the exports map: it cannot pass on an empty one.
  expect(entries).toEqual(expect.arrayContaining(["gatehouse", "gatehouse/core", "gatehouse/jwt", "gatehouse/errors", "gatehouse/providers/nodemailer", "gatehouse/providers/credentials", "gatehouse/adapters/sql", "gatehouse/adapters/mongodb", "gatehouse/stores/redis", "gatehouse/stores/redis-sessions", "gatehouse/client", "gatehouse/react"]))
  expect(existsSync(join(consumer, "node_modules", "@types", "nodemailer"))).toBe(false)
  const result = await check("every-entry-point", everyEntryPointSource(entries))
  expect(result.output).toBe("")
  expect(result.code).toBe(0)
}, 120_000)
