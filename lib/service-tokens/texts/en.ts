/**
 * Service tokens' texts in English (issue #31): the error page's texts for their errors (an API
 * client is told the message). The other languages beside this file have exactly these keys.
 */
export const en = {
  "error.ServiceTokenInvalid.heading": "Token not accepted",
  "error.ServiceTokenInvalid.message": "The service token is not valid here: it may have expired, or be meant for another service.",
  "error.ServiceTokenScopeDenied.heading": "Permission not held",
  "error.ServiceTokenScopeDenied.message": "You asked for a token with a permission that you or your key do not have.",
  "error.ServiceTokensUnavailable.heading": "Not available",
  "error.ServiceTokensUnavailable.message": "This site does not issue service tokens.",
} as const
