/** Bot protection's texts in English (issue #33): their keys are the catalog's (index.ts). */
export const en = {
  "signin.error.BotChallengeFailed": "Please confirm you are not a robot, then try again.",
  "signin.error.BotCheckUnavailable": "We could not check that you are not a robot just now. Try again in a minute.",
  "error.BotChallengeFailed.heading": "Check failed",
  "error.BotChallengeFailed.message": "The request did not pass the check that you are not a robot. Go back, complete the check, and try again.",
  "error.BotCheckUnavailable.heading": "Check unavailable",
  "error.BotCheckUnavailable.message": "The check that you are not a robot could not run just now. Try again in a minute.",

  // The ALTCHA widget's own words (its checkbox's label and states), in the page's language (../widget.ts).
  "bot.widget.label": "I'm not a robot",
  "bot.widget.verifying": "Checking…",
  "bot.widget.verified": "Checked: you are not a robot",
  "bot.widget.waiting": "Checking… please wait a moment.",
  "bot.widget.required": "Please tick the box to show you are not a robot.",
  "bot.widget.failed": "The check did not work. Try again in a minute.",
  "bot.widget.expired": "The check expired. Tick the box again.",
  // Without JavaScript the check cannot run (views/partials/bot-challenge.ejs): said plainly, with a way out.
  "bot.noscript.message": "This form uses JavaScript to check that you are not a robot, and JavaScript is off in this browser. Turn it on and reload the page.",
  "bot.noscript.link": "Can't turn JavaScript on? Continue another way.",
  "bot.noscript.contact": "If you can't turn JavaScript on, contact this site's support team and they will help you.",
} as const
