/**
 * `gatehouse/service-tokens` (issue #31): what a service that receives Gatehouse's service tokens
 * needs, and nothing more: it loads jose and the error classes, not Gatehouse. `gatehouse` exports
 * the same.
 */
export { verifyServiceToken, type ServiceTokenPayload, type VerifyServiceTokenOptions } from "./verify.js"
export { ServiceTokenInvalid } from "./errors.js"
