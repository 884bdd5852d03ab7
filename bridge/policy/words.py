"""The vocabulary the classifier reads risk from: words, field kinds, element kinds."""

from __future__ import annotations

import re

from .categories import Category

C = Category

def _phrases(*items: str) -> re.Pattern[str]:
    """Whole words or phrases, any case; a space in a phrase also matches no space."""
    body = "|".join(item.replace(" ", r"\s*") for item in items)
    return re.compile(rf"\b(?:{body})\b", re.IGNORECASE)


PURCHASE = _phrases(
    "buy", "buy now", "buy it now", "purchase", "pay", "pay now", "check out",
    "proceed to checkout", "place (your )?order", "complete (your )?(order|purchase|payment)",
    "confirm (your )?(order|purchase|payment)", "submit (your )?(order|payment)",
    "make (a )?payment", "approve (the )?(payment|transfer|transaction|purchase)",
    "subscribe", "donate", "add (a )?payment( method)?", "upgrade", "upgrade plan",
    "book now", "order now", "pre order", "place bid", "bid", "rent",
    "kaufen", "jetzt kaufen", "bezahlen", "zahlungspflichtig bestellen",
    "kostenpflichtig bestellen", "bestellen", "acheter", "payer", "commander",
    "passer (la )?commande", "comprar", "pagar", "realizar pedido", "finalizar compra")
SEND = _phrases(
    "send", "send now", "post", "publish", "tweet", "retweet", "repost", "reply",
    "reply all", "comment", "add (a )?comment", "share", "submit review", "email", "message",
    "invite", "transfer", "forward", "schedule (post|send|tweet|email)",
    "senden", "absenden", "veröffentlichen", "antworten", "teilen", "posten", "envoyer",
    "publier", "répondre", "partager", "enviar", "publicar", "responder", "compartir")
DELETE = _phrases(
    "delete", "remove", "erase", "destroy", "trash", "move to trash", "discard", "unsubscribe",
    "close (my |your |this )?account",
    "cancel (my |your |this )?(subscription|membership|plan|account|order)", "wipe",
    "deactivate", "purge", "clear (all|history|data|browsing data)", "factory reset",
    "löschen", "entfernen", "supprimer", "effacer", "eliminar", "borrar")
SETTINGS_NAME = _phrases(
    "(change|reset|update|set|edit|new) (your )?(password|email( address)?|phone( number)?|"
    "username)", "two factor( authentication)?", "2fa", "2 step( verification)?",
    "two step( verification)?", "mfa", "multi factor", "passkeys?", "security keys?",
    "authenticator( app)?", "recovery (email|phone|codes?)", "backup codes?", "ssh keys?",
    "gpg keys?", "api keys?", "(personal )?access tokens?",
    "(sign|log) out (of )?(all|everywhere|other)", "revoke", "authori[sz]e",
    "(grant|allow) access", "connected apps", "(delete|close) (my |your |this )?account",
    "transfer ownership", "change visibility")
SETTINGS_PATH = _phrases(
    "settings?", "security", "passwords?", "2fa", "two factor", "2 step", "two step", "mfa",
    "privacy", "billing", "profile edit", "edit profile", "recovery", "preferences", "oauth",
    "authori[sz]e", "consent", "signinoptions", "permissions")
ACCOUNT_PATH = _phrases("accounts?", "myaccount")
LOGIN_PATH = _phrases("log in", "sign in", "sign up", "register", "auth", "sso")
COMMIT_NAME = _phrases(
    "save", "save changes", "update", "apply", "confirm", "enable", "disable", "turn on",
    "turn off", "set up", "change", "add", "remove", "delete", "revoke", "reset", "regenerate",
    "generate", "done", "ok", "submit", "continue", "yes", "allow", "authori[sz]e", "verify",
    "activate", "deactivate")
COMPOSER = _phrases(
    "message", "reply", "comment", "post", "tweet", "chat", "send", "write", "compose",
    "publish", "respond", "nachricht", "antworten", "kommentar", "répondre", "commentaire",
    "mensaje", "responder", "comentario")
SUBMIT_NAME = _phrases(
    "submit", "save", "continue", "next", "sign in", "log in", "sign up", "register",
    "confirm", "ok", "done", "apply", "update", "search", "go", "proceed", "create", "finish",
    "verify", "send", "post", "publish", "pay", "buy", "order", "place order", "subscribe",
    "delete", "remove")
# names that say nothing of what a button does: the amounts around it say it instead
VAGUE_NAME = re.compile(
    r"^(?:(?:continue|next|finish|submit|ok|okay|done|confirm|proceed|complete|yes|accept|"
    r"go|weiter|fertig|suivant|valider|terminer|siguiente|continuar|finalizar)\s*)*$",
    re.IGNORECASE)
MONEY = re.compile(r"[$€£¥₹]\s?\d|\d[\d.,]*\s?(?:[$€£¥₹]|\b(?:usd|eur|gbp|chf)\b)|"
                   r"\b(?:usd|eur|gbp|chf)\s?\d", re.IGNORECASE)
SECRET_FIELDS = (
    ("password", _phrases("password", "passwd", "pwd", "passcode", "pin")),
    ("one-time-code", _phrases("otp", "totp", "hotp", "2fa", "mfa",
                               "one time (code|password|passcode|pin)", "verification code",
                               "security code", "auth(entication)? code", "(sms|text) code")),
    ("card or bank", _phrases("card( number)?", "card holder", "cc (number|num|exp|csc|cvc|cvv)",
                              "ccnum", "cvc2?", "cvv2?", "csc", "cvn", "iban", "bic", "swift",
                              "expiry( date)?", "expiration( date)?", "exp (date|month|year)",
                              "routing number", "account number", "sort code")),
    ("identity number", _phrases("ssn", "social security( number)?", "tax id",
                                 "passport number")),
    ("secret", _phrases("secret", "secret (key|answer)", "client secret", "api key", "api token",
                        "access (key|token)", "auth token", "bearer( token)?", "token",
                        "private key", "passphrase", "(recovery|backup) (code|phrase)",
                        "seed phrase", "mnemonic")),
)
SENSITIVE_FILE = re.compile(
    r"^(id_(rsa|dsa|ecdsa|ed25519)(_sk)?(\.pub)?|\.env(\..*)?|\.netrc|_netrc|\.npmrc|\.pypirc|"
    r"\.git-credentials|\.pgpass|\.my\.cnf|\.htpasswd|\.vault-token|secring\.gpg|"
    r"credentials(\.json)?|cookies|login data|web data|wallet\.dat|.*\.(pem|key|p12|pfx|kdbx?|"
    r"keychain(-db)?|keystore|jks|gpg|asc|ovpn|keyring))$", re.IGNORECASE)
# folders whose files are keys, keyrings, cloud credentials, browser profiles or Tabsteward's
# own state, wherever the path starts (matched against a real path written with "/")
SENSITIVE_PATH = re.compile(
    r"(^|/)(\.ssh|\.gnupg|\.aws|\.azure|\.kube|\.docker|\.password-store|\.mozilla|\.pki|"
    r"\.local/share/(keyrings|tabsteward)|\.local/state/tabsteward|"
    r"\.config/(gcloud|gh|op|1password|rclone|tabsteward|chromium|google-chrome[^/]*|"
    r"BraveSoftware|microsoft-edge[^/]*|vivaldi|opera|keepassxc|Signal)|"
    r"Library/(Keychains|Cookies|Application Support/(Google/Chrome|Chromium|BraveSoftware|"
    r"Microsoft Edge|Firefox|tabsteward))|"
    r"AppData/(Local|Roaming)/(Google/Chrome|Microsoft/Edge|Mozilla|Microsoft/Credentials|"
    r"Microsoft/Protect|tabsteward))(/|$)", re.IGNORECASE)

FAMILIES = ((C.PURCHASE, PURCHASE, "a purchase or payment"),
            (C.SEND, SEND, "sending or publishing"),
            (C.DELETE, DELETE, "deleting"))

TEXT_TYPES = frozenset({"", "text", "search", "email", "url", "tel", "password", "number",
                        "date", "datetime-local", "month", "time", "week"})
BUTTON_ROLES = frozenset({"button", "menuitem", "menuitemcheckbox", "menuitemradio", "tab",
                          "switch", "checkbox", "radio", "option", "treeitem"})
TOGGLE_ROLES = frozenset({"switch", "checkbox", "radio", "menuitemcheckbox", "menuitemradio"})
# actions that send a click to their element (an upload too, unless into a file input)
CLICKING = frozenset({"click", "download", "drag"})
ACTING = frozenset({"click", "fill", "type", "press", "select", "check", "uncheck", "upload",
                    "download", "drag"})
NAVIGATING = frozenset({"navigate", "tab_open"})
SIMPLE = {"upload": C.UPLOAD, "download": C.DOWNLOAD, "eval": C.EVAL,
          "read_storage": C.READ_STORAGE}
PASTE_MODS = frozenset({"control", "ctrl", "meta", "cmd", "command"})
