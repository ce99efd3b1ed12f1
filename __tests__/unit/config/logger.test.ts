/**
 * Logging: levels filter the console; a partial custom logger receives its levels whatever the
 * level; a broken logger never throws; warnings are logged once per configuration.
 */
import { jest } from "@jest/globals"
import { resolveConfig } from "../../../lib/core/config/resolve.js"
import { skipCSRFCheck } from "../../../lib/core/index.js"
import { AuthError, InvalidOption, MissingCSRF } from "../../../lib/errors.js"
import { config, DEV_ENV, expectConfigError, recordingLogger, resolveWith } from "./support.js"

let consoleError: ReturnType<typeof spy>
let consoleWarn: ReturnType<typeof spy>
let consoleDebug: ReturnType<typeof spy>

function spy(method: "error" | "warn" | "debug") {
  return jest.spyOn(console, method).mockImplementation(() => {})
}

beforeEach(() => {
  consoleError = spy("error")
  consoleWarn = spy("warn")
  consoleDebug = spy("debug")
})

afterEach(() => {
  jest.restoreAllMocks()
})

describe("levels", () => {
  it.each([
    ["silent", false, false, false],
    ["error", true, false, false],
    ["warn", true, true, false],
    ["verbose", true, true, true],
  ])("logLevel %s: error %s, warn %s, debug %s", (logLevel, error, warn, debug) => {
    const { logger } = resolveWith({ logLevel })
    logger.error(new InvalidOption("bad option"))
    logger.warn("csrf-disabled")
    logger.debug("a debug line", { step: 1 })
    expect(consoleError.mock.calls.length > 0).toBe(error)
    expect(consoleWarn.mock.calls.length > 0).toBe(warn)
    expect(consoleDebug.mock.calls.length > 0).toBe(debug)
  })

  it("lines are prefixed [gatehouse][error] <Type>, [gatehouse][warning][<code>] and [gatehouse][debug]", () => {
    const { logger } = resolveWith({ logLevel: "verbose" })
    logger.error(new InvalidOption("session.maxAge must be positive"))
    logger.warn("csrf-disabled")
    logger.debug("reading the session", { id: 1 })
    expect(consoleError).toHaveBeenCalledWith("[gatehouse][error] InvalidOption: session.maxAge must be positive")
    expect(consoleWarn).toHaveBeenCalledWith(expect.stringMatching(/^\[gatehouse\]\[warning\]\[csrf-disabled\] CSRF protection is off/))
    expect(consoleDebug).toHaveBeenCalledWith("[gatehouse][debug]: reading the session", expect.stringContaining('"id": 1'))
  })

  it("an error's cause is logged with it; a request error is logged as one line", () => {
    const { logger } = resolveWith({ logLevel: "error" })
    const inner = new Error("database down")
    logger.error(new AuthError("wrapped", { cause: inner }))
    expect(consoleError).toHaveBeenCalledWith("[gatehouse][cause]:", inner.stack)
    consoleError.mockClear()
    logger.error(new MissingCSRF("no token"))
    expect(consoleError.mock.calls).toEqual([["[gatehouse][error] MissingCSRF: no token"]])
  })
})

describe("a custom logger", () => {
  it("a level it supplies receives its messages regardless of logLevel", () => {
    const log = recordingLogger()
    const { logger } = resolveWith({ logLevel: "silent", logger: log.logger })
    const error = new InvalidOption("x")
    logger.error(error)
    logger.warn("csrf-disabled")
    logger.debug("line", { a: 1 })
    expect(log.error).toHaveBeenCalledWith(error)
    expect(log.warn).toHaveBeenCalledWith("csrf-disabled")
    expect(log.debug).toHaveBeenCalledWith("line", { a: 1 })
    expect(consoleError).not.toHaveBeenCalled()
  })

  it("levels it does not supply still go to the console, filtered by logLevel", () => {
    const log = recordingLogger()
    const { logger } = resolveWith({ logLevel: "verbose", logger: { warn: log.warn } })
    logger.error(new InvalidOption("x"))
    logger.warn("csrf-disabled")
    logger.debug("line")
    expect(consoleError).toHaveBeenCalled()
    expect(consoleDebug).toHaveBeenCalledWith("[gatehouse][debug]: line")
    expect(consoleWarn).not.toHaveBeenCalled()
    expect(log.warn).toHaveBeenCalledWith("csrf-disabled")

    const quiet = resolveWith({ logLevel: "silent", logger: { warn: log.warn } }).logger
    consoleError.mockClear()
    quiet.error(new InvalidOption("y"))
    expect(consoleError).not.toHaveBeenCalled()
  })

  it("a logger that throws does not throw, neither at resolution nor later", () => {
    const boom = () => {
      throw new Error("logger broke")
    }
    let resolved: ReturnType<typeof resolveConfig> | undefined
    expect(() => {
      resolved = resolveWith({ debug: true, logger: { error: boom, warn: boom, debug: boom } })
    }).not.toThrow()
    expect(() => resolved!.logger.error(new Error("x"))).not.toThrow()
    expect(() => resolved!.logger.warn("csrf-disabled")).not.toThrow()
    expect(() => resolved!.logger.debug("x")).not.toThrow()
    expect(() => resolved!.warnOnce("basepath-mount-mismatch")).not.toThrow()
  })

  it("a logger that is not an object is an InvalidOption", () => {
    expect(() => resolveWith({ logger: "console" })).toThrow(InvalidOption)
  })

  // A level that is not a function would swallow every message of that level without a word.
  it.each(["error", "warn", "debug"])("logger.%s that is not a function is an InvalidOption naming it", (level) => {
    expectConfigError(config({ logger: { [level]: "console" } }), InvalidOption, "InvalidOption", [`logger.${level}`, '"console"'])
  })
})

describe("warnings", () => {
  it("debug: true means verbose and warns debug-deprecated and debug-enabled", () => {
    const log = recordingLogger()
    const { logger } = resolveConfig(config({ logLevel: undefined, debug: true, logger: { warn: log.warn } }), DEV_ENV)
    expect(log.codes()).toEqual(["debug-deprecated", "debug-enabled"])
    logger.debug("visible")
    expect(consoleDebug).toHaveBeenCalledWith("[gatehouse][debug]: visible")
  })

  it("debug: false warns debug-deprecated only and keeps the error level", () => {
    const log = recordingLogger()
    const { logger } = resolveConfig(config({ logLevel: undefined, debug: false, logger: { warn: log.warn } }), DEV_ENV)
    expect(log.codes()).toEqual(["debug-deprecated"])
    logger.debug("hidden")
    expect(consoleDebug).not.toHaveBeenCalled()
  })

  it.each([
    ["jwt.encode", { encode: () => "token" }, "jwt-encode-deprecated"],
    ["jwt.decode", { decode: () => null }, "jwt-decode-deprecated"],
    ["jwt.maxAge", { maxAge: 60 }, "jwt-maxage-deprecated"],
  ])("%s warns %s", (_label, jwt, code) => {
    const log = recordingLogger()
    resolveWith({ jwt, logger: log.logger })
    expect(log.codes()).toEqual([code])
  })

  it("skipCSRFCheck (the marker) warns csrf-disabled", () => {
    const log = recordingLogger()
    resolveWith({ skipCSRFCheck, logger: log.logger })
    expect(log.codes()).toEqual(["csrf-disabled"])
  })

  it("each code is logged once per configuration, even when the same object is resolved twice", () => {
    const log = recordingLogger()
    const cfg = config({
      debug: true,
      skipCSRFCheck,
      jwt: { encode: () => "t", decode: () => null, maxAge: 60 },
      logger: log.logger,
    })
    const first = resolveConfig(cfg, DEV_ENV)
    resolveConfig(cfg, DEV_ENV)
    first.warnOnce("csrf-disabled")
    first.warnOnce("basepath-mount-mismatch")
    first.warnOnce("basepath-mount-mismatch")
    const codes = log.codes()
    expect(new Set(codes).size).toBe(codes.length)
    expect(codes.sort()).toEqual(
      ["basepath-mount-mismatch", "csrf-disabled", "debug-deprecated", "debug-enabled", "jwt-decode-deprecated", "jwt-encode-deprecated", "jwt-maxage-deprecated"].sort(),
    )
  })

  it("another configuration object logs its warnings again", () => {
    const log = recordingLogger()
    resolveWith({ skipCSRFCheck, logger: log.logger })
    resolveWith({ skipCSRFCheck, logger: log.logger })
    expect(log.codes()).toEqual(["csrf-disabled", "csrf-disabled"])
  })
})
