/**
 * The named errors of bot protection (issue #33). Their types join `ErrorType` here (declaration
 * merging, lib/core/errors.ts), their outcomes are on the capability object (capability.ts), and
 * `gatehouse/errors` re-exports them.
 */
import { AuthError } from "../core/errors.js"

declare module "../core/errors.js" {
  interface ErrorTypes {
    BotChallengeFailed: true
    BotCheckUnavailable: true
  }
}

/** The request carried no challenge answer, or a wrong, expired or used one: nothing was sent or created. */
export class BotChallengeFailed extends AuthError {
  static type = "BotChallengeFailed" as const
  /** Bots meet it all day: counted and audited, logged at debug only (lib/core/error-outcome.ts). */
  readonly quiet = true
}
/** The challenge's vendor could not answer and the action fails closed (`botProtection.onOutage`). */
export class BotCheckUnavailable extends AuthError {
  static type = "BotCheckUnavailable" as const
}
