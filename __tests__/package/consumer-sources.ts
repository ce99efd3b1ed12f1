/**
 * The consumer files published-types.test.ts type-checks against the published declarations, one
 * per entry point, written from what the capabilities bring at run time (their actions, events,
 * adapter methods and texts; every error type), so that a capability added later is checked without
 * editing this file. Each value gets a line of its own: a failure names it. The `@ts-expect-error`
 * lines must fail to compile, so a type that became `string` or `any` fails the check instead of
 * passing it.
 */
import { CAPABILITIES } from "../../lib/capabilities.js"
import { ERROR_TYPES } from "../../lib/errors.js"

export const CAPABILITY_ACTIONS = CAPABILITIES.flatMap((capability) => Object.keys(capability.routes ?? {}))
export const CAPABILITY_ADAPTER_METHODS: string[] = CAPABILITIES.flatMap((capability) => capability.adapterMethods ?? [])
export const CAPABILITY_EVENTS: string[] = CAPABILITIES.flatMap((capability) => capability.events ?? [])
export const CAPABILITY_MESSAGE_KEYS = CAPABILITIES.flatMap((capability) => Object.keys(capability.texts?.en ?? {}))
export const CAPABILITY_PAGES: string[] = CAPABILITIES.flatMap((capability) => capability.options?.pages ?? [])
export const AUDIT_TYPES: string[] = CAPABILITIES.flatMap((capability) => capability.auditTypes ?? [])

const quote = (value: string) => JSON.stringify(value)

/** `const <name>: Array<type> = [...]`, one value a line, then a value of `type` that must not compile. */
function values(name: string, type: string, list: readonly string[], unknown: string): string[] {
  return [
    `export const ${name}: Array<${type}> = [`,
    ...list.map((value) => `  ${quote(value)},`),
    "]",
    `// @ts-expect-error not a value of ${type}`,
    `export const ${name}Unknown: ${type} = ${quote(unknown)}`,
    "",
  ]
}

const actions = () => values("actions", "AuthAction", CAPABILITY_ACTIONS, "no-such-action")
const errorTypes = () => values("errorTypes", "ErrorType", ERROR_TYPES, "NoSuchError")
const adapterMethods = () => values("adapterMethods", "keyof Adapter", CAPABILITY_ADAPTER_METHODS, "noSuchMethod")
const auditTypes = () => values("auditTypes", "AuditType", AUDIT_TYPES, "no.such")

/**
 * Configurations with the options, events and texts capabilities add, one literal each (the
 * compiler reports one unknown property per literal); `twoFactorEnabled` typed by hand, its
 * message read. Then an event, a page and a message key that must not compile.
 */
function config(): string[] {
  return [
    'export const twoFactorConfig: AuthConfig = { providers: [], twoFactor: { issuer: "Example", required: true } }',
    "export const noticesConfig: AuthConfig = { providers: [], notices: { undoWindow: 3600 } }",
    "export const eventsConfig: AuthConfig = {",
    "  providers: [],",
    "  events: {",
    "    twoFactorEnabled: (message) => {",
    "      const userId: string = message.userId",
    "      void userId",
    "    },",
    ...CAPABILITY_EVENTS.filter((name) => name !== "twoFactorEnabled").map((name) => `    ${quote(name)}: () => undefined,`),
    "  },",
    "}",
    "export const messagesConfig: AuthConfig = {",
    "  providers: [],",
    "  messages: {",
    "    de: {",
    ...CAPABILITY_MESSAGE_KEYS.map((key) => `      ${quote(key)}: "x",`),
    "    },",
    "  },",
    "}",
    "export const pagesConfig: AuthConfig = {",
    "  providers: [],",
    "  pages: {",
    ...CAPABILITY_PAGES.map((name) => `    ${quote(name)}: "/x",`),
    "  },",
    "}",
    'export const unknownPage: AuthConfig["pages"] = {',
    "  // @ts-expect-error not a page",
    '  noSuchPage: "/x",',
    "}",
    'export const unknownEvent: AuthConfig["events"] = {',
    "  // @ts-expect-error not an event",
    "  noSuchEvent: () => undefined,",
    "}",
    'export const unknownMessage: AuthConfig["messages"] = {',
    "  // @ts-expect-error not a message key",
    '  de: { "no.such.key": "x" },',
    "}",
    "",
  ]
}

/** Entry point -> the source of a consumer file that reaches the types through it alone. */
export function consumerSources(): Record<string, string> {
  return {
    gatehouse: [
      'import type { Adapter, AuditType, AuthAction, AuthConfig, ErrorType } from "gatehouse"',
      "",
      ...actions(),
      ...errorTypes(),
      ...adapterMethods(),
      ...auditTypes(),
      ...config(),
    ].join("\n"),
    // `gatehouse/core` names neither type: they are read from the exports that use them.
    "gatehouse/core": [
      'import { Auth, isAuthAction } from "gatehouse/core"',
      "",
      "type AuthAction = typeof isAuthAction extends (value: unknown) => value is infer Action ? Action : never",
      "type AuthConfig = Exclude<Parameters<typeof Auth>[1], (...args: never[]) => unknown>",
      "",
      ...actions(),
      ...config(),
    ].join("\n"),
    "gatehouse/errors": ['import type { ErrorType } from "gatehouse/errors"', "", ...errorTypes()].join("\n"),
  }
}

/**
 * A consumer that imports each of `entries` (module specifiers) as a namespace and uses it, so the
 * compiler reads every published declaration file those entry points reach.
 */
export function everyEntryPointSource(entries: readonly string[]): string {
  const names = entries.map((_, index) => `entry${index}`)
  return [
    ...entries.map((entry, index) => `import * as ${names[index]} from ${quote(entry)}`),
    "",
    `export const namespaces: object[] = [${names.join(", ")}]`,
    "",
  ].join("\n")
}
