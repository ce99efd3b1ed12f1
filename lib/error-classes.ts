/**
 * Every public error class: the core's and each capability's (its folder's errors.ts), one line
 * each. `gatehouse/errors` (errors.ts) re-exports this and reads the list of types from it.
 */
export * from "./core/named-errors.js"
export * from "./account/errors.js"
export * from "./devices/errors.js"
export * from "./email-codes/errors.js"
export * from "./federation/errors.js"
export * from "./passkeys/errors.js"
export * from "./organizations/errors.js"
export * from "./sso/errors.js"
export * from "./admin/errors.js"
export * from "./api-keys/errors.js"
export * from "./service-tokens/errors.js"
export * from "./bot-protection/errors.js"
export * from "./password/errors.js"
export * from "./tokens/errors.js"
export * from "./two-factor/errors.js"
export * from "./identity-provider/errors.js"
