/** Japanese texts of the built-in pages and the sign-in email (polite form). */
import type { Messages } from "./en.js"

export const ja: Messages = {
  "signin.heading": "ログイン",
  "signin.with": "{provider} でログイン",
  "signin.or": "または",
  "signin.none": "ログイン方法が設定されていません。",
  "signin.email.label": "メールアドレス",
  "signin.email.placeholder": "name@example.com",
  "signin.passkey.emailLabel": "メールアドレス（アカウント作成用）",
  "signin.passkey.unsupported": "このブラウザはパスキーに対応していません。",
  "signin.passkey.failed": "パスキーでのログインが完了しませんでした。もう一度お試しください。",

  "signin.error.Signin": "ログインを開始できませんでした。もう一度お試しいただくか、別の方法でログインしてください。",
  "signin.error.OAuthSignin": "ログインサービスに接続できませんでした。もう一度お試しいただくか、別の方法でログインしてください。",
  "signin.error.OAuthCallbackError": "ログインサービスから受け付けられない応答が返されました。もう一度お試しください。",
  "signin.error.OAuthCreateAccount": "このログインサービスではアカウントを作成できませんでした。別の方法でログインしてください。",
  "signin.error.EmailCreateAccount": "このメールアドレスではアカウントを作成できませんでした。別の方法でログインしてください。",
  "signin.error.Callback": "ログインの完了中に問題が発生しました。もう一度お試しください。",
  "signin.error.OAuthAccountNotLinked": "このメールアドレスは別のログイン方法で登録済みです。最初に使用した方法でログインしてください。",
  "signin.error.EmailSignin": "ログイン用のメールを送信できませんでした。メールアドレスを確認して、もう一度お試しください。",
  "signin.error.CredentialsSignin": "入力内容が正しくありません。確認して、もう一度お試しください。",
  "signin.error.SessionRequired": "このページを表示するにはログインしてください。",
  "signin.error.MissingCSRF": "フォームの有効期限が切れました。もう一度お試しください。",
  "signin.error.WebAuthnVerificationError": "パスキーを確認できませんでした。もう一度お試しいただくか、別の方法でログインしてください。",
  "signin.error.RateLimited": "試行回数が多すぎます。数分待ってから、もう一度お試しください。",
  "signin.error.default": "ログインできませんでした。もう一度お試しください。",

  "signout.heading": "ログアウト",
  "signout.question": "ログアウトしてもよろしいですか？",
  "signout.button": "ログアウト",

  "verify.heading": "メールをご確認ください",
  "verify.message": "ログイン用のリンクをお送りしました。リンクは1回だけ使用でき、まもなく有効期限が切れます。",

  "link.home": "ホームページへ",
  "link.signInAgain": "もう一度ログイン",

  "error.Configuration.heading": "サーバーエラー",
  "error.Configuration.message": "ログインサービスが正しく設定されていません。詳しくはサイトのログをご確認ください。",
  "error.AccessDenied.heading": "アクセスが拒否されました",
  "error.AccessDenied.message": "ここでログインする権限がありません。",
  "error.Verification.heading": "このリンクは無効です",
  "error.Verification.message": "ログイン用のリンクは1回だけ使用でき、一定時間が過ぎると無効になります。新しいリンクをリクエストしてください。",
  "error.AdapterError.heading": "一時的に利用できません",
  "error.AdapterError.message": "現在ログインをご利用いただけません。しばらくしてから、もう一度お試しください。",
  "error.default.heading": "問題が発生しました",
  "error.default.message": "リクエストを完了できませんでした。もう一度お試しください。",

  "email.subject": "{site} へのログイン",
  "email.heading": "{site} へのログイン",
  "email.intro": "{identifier} としてログインするには、このボタンを押してください。",
  "email.button": "ログイン",
  "email.textIntro": "{identifier} としてログインするには、次のリンクを開いてください：",
  "email.expires": "このリンクは1回だけ使用でき、{expires} に有効期限が切れます。心当たりがない場合は、このメールを無視してください。",
}
