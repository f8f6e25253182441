"""Secrets: provider API keys, cloud and chat tokens, private keys, JWTs, passwords in config lines
(`password: …`, a note's `pass: …`, a `senha`, code's `SECRET = b'…'`).

Shapes follow the providers' published prefixes; a validator rejects prose and placeholders
(`sk-` in a sentence, `password: ********`, `${DB_PASSWORD}`).
"""

from __future__ import annotations

import base64
import json
import re

from ec2audit.annotate.recognizers.base import PatternRecognizer

#: The providers' published key prefixes (Stripe, OpenAI, Anthropic, GitHub, GitLab, Slack, AWS, Google, Hugging Face,
#: Alibaba Cloud, npm, PyPI, SendGrid, Shopify): every key of its kind starts with one, so showing it shows nothing
#: of the secret (`sk_live_****` is a placeholder, not a fragment). Longest first: the first that fits is the prefix.
PUBLIC_KEY_PREFIXES = tuple(sorted((
    "sk_live_", "sk_test_", "pk_live_", "pk_test_", "rk_live_", "rk_test_", "whsec_",
    "sk-proj-", "sk-svcacct-", "sk-admin-", "sk-ant-api03-", "sk-ant-admin01-", "sk-",
    "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-",
    "xoxb-", "xoxp-", "xoxa-", "xoxo-", "xoxs-", "xoxr-", "xapp-",
    "akia", "asia", "aiza", "ya29.", "hf_", "ltai", "npm_", "pypi-", "sg.", "shpat_", "shpss_",
), key=len, reverse=True))


def public_key_prefix(value: str) -> str:
    """The published prefix `value` starts with (in any case), as the value writes it; "" if none."""
    folded = value.casefold()
    return next((value[:len(p)] for p in PUBLIC_KEY_PREFIXES if folded.startswith(p) and len(folded) > len(p)), "")


_PLACEHOLDERS = {"none", "null", "true", "false", "required", "optional", "changeme", "password", "secret",
                 "example", "redacted", "hidden", "string", "your_password", "your-password"}


#: A template's blank for a key (`.env.sample`'s `your-secret-key-here`, `sk_test_xxxxxxxx`, `sk-...`,
#: `<your-token>`): a word for "yours goes here", a run of one filler character, or an ellipsis. No random key has
#: these.
_TEMPLATE_BLANK = re.compile(r"(?i)(?:^|[-_ <{])your[-_ ]|[-_ ]here\W*$|x{6,}|\*{4,}|0{8,}|(?:\.\.\.|…)\W*$")


def documented_example(value: str) -> bool:
    """A key documentation prints to look real and never work: AWS's `AKIAIOSFODNN7EXAMPLE` and
    `wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY` (copied into every `.env.example`), `sk_test_EXAMPLE…`, or a
    template's blank (`your-secret-key-here`, `sk_test_xxxxxxxx`, `sk-...`). No random key spells these."""
    return "example" in value.casefold() or bool(_TEMPLATE_BLANK.search(value))


def _random_looking(value: str) -> bool:
    """Real keys mix digits or cases; words like `sk-learn-compatible-models` do not."""
    if documented_example(value):
        return False
    body = value.split("-", 1)[-1] if value.startswith("sk-") else value
    mixed = any(c.isdigit() for c in body) or (any(c.isupper() for c in body) and any(c.islower() for c in body))
    return mixed and any(c.isalpha() for c in body) and len(set(body)) >= 8


def _jwt(value: str) -> bool:
    header = value.split(".", 1)[0]
    try:
        data = json.loads(base64.urlsafe_b64decode(header + "=" * (-len(header) % 4)))
    except ValueError:
        return False
    return isinstance(data, dict) and "alg" in data


def _config_secret(value: str) -> bool:
    stripped = value.strip("'\"")
    return (len(stripped) >= 6 and not documented_example(stripped) and stripped.lower() not in _PLACEHOLDERS
            and len(set(stripped)) > 2
            and stripped[0] not in "$<{%*" and not re.fullmatch(r"[xX*.#-]+", stripped))


def _noted_password(value: str) -> bool:
    """After `pass` (`pass: …`, `DB_PASS=…`), a word also written for passed tests (`--- PASS: TestRefund`,
    hence not all capitals alone) and mountain passes: only a value with a digit or a symbol a password has
    (`Wq7!rPz2`, `girasol-azul-1987`), never a plain word, an identifier or a path."""
    return _config_secret(value) and bool(re.search(r"[\d!#$%&*+?@^~]", value)) and "/" not in value


def _keyed(keys: str) -> str:
    """A value after one of `keys` (a regex alternation), as config files, env lines and JSON write it:
    `DB_PASSWORD=…`, `"token": "…"`, `secret: b'…'`; not a URL's `?token=` (its own pattern)."""
    return (rf"(?i)(?<![?&])(?:\b|_)(?:{keys})[\"']?\s*[:=]\s*(?:[bru]?[\"'])?(?P<value>[^\s\"',;]{{6,}})")


def _keyed_zh(keys: str) -> str:
    """The same after a Chinese key (`密码：…`), full-width colon and punctuation included, or a space alone before
    a value in Latin letters, digits and symbols (`测试账号 test01 / 密码 Passw0rd!2024`); `密码错误` has neither."""
    return rf"(?:{keys})(?:\s*[:：=]\s*|[ \t]+(?=[!-~]{{6}}))(?P<value>[^\s\"'，,；;]{{6,}})"


RECOGNIZERS = [
    PatternRecognizer("openai-anthropic-key", "API_KEY", "credential", (
        (r"(?<![\w-])sk-ant-(?:api|admin)\d{2}-[A-Za-z0-9_-]{20,}", 0.95),
        (r"(?<![\w-])sk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}", 0.85),
    ), validate=_random_looking),
    # Stripe's secret and restricted keys (`sk_live_…`, `rk_test_…`; `pk_` keys are published, no secret)
    PatternRecognizer("stripe-key", "API_KEY", "credential", (
        (r"(?<![\w-])[sr]k_(?:live|test)_[A-Za-z0-9]{24,}(?![\w-])", 0.95),
    ), validate=_random_looking),
    PatternRecognizer("aws-access-key", "AWS_ACCESS_KEY", "credential", (
        (r"(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])", 0.95),
    ), validate=lambda value: not documented_example(value)),
    PatternRecognizer("github-token", "GITHUB_TOKEN", "credential", (
        (r"(?<!\w)gh[pousr]_[A-Za-z0-9]{36}(?!\w)", 0.95),
        (r"(?<!\w)github_pat_[A-Za-z0-9_]{22,}", 0.95),
    )),
    PatternRecognizer("slack-token", "SLACK_TOKEN", "credential", (
        (r"(?<![\w-])xox[abposr]-[A-Za-z0-9-]{10,}", 0.9),
    ), validate=_random_looking),
    PatternRecognizer("session-token", "SESSION_TOKEN", "credential", (
        (r"(?<![\w-])(?:sess|session|sid|tok)_[A-Za-z0-9]{16,}(?![\w-])", 0.8),
    ), validate=_random_looking),
    PatternRecognizer("pem-private-key", "PRIVATE_KEY", "credential", (
        (r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[A-Za-z0-9+/=\s:,-]+?-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----",
         1.0),
    )),
    PatternRecognizer("jwt", "JWT", "credential", (
        (r"(?<![\w.-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}", 0.9),
    ), validate=_jwt),
    PatternRecognizer("url-password", "PASSWORD", "credential", (
        (r"\b[a-z][a-z0-9+.-]{1,20}://[^:@/\s]*:(?P<value>[^@/\s]{3,})@[\w.-]+", 0.85),
    ), validate=_config_secret),
    PatternRecognizer("bearer-token", "BEARER_TOKEN", "credential", (
        (r"(?i:\bbearer)\s+(?P<value>[A-Za-z0-9._~+/=-]{16,})", 0.85),
    ), validate=_random_looking),
    PatternRecognizer("config-password", "PASSWORD", "credential", (
        (_keyed("password|passwd|pwd|passphrase|passwort|passord|senha|contrase[ñn]a"), 0.8),
        (_keyed_zh("密码|口令"), 0.8),
    ), validate=_config_secret),
    # the key says what the value is: `SECRET_KEY=…`, `api_key: …`, a URL's `?token=…` (the field it becomes)
    PatternRecognizer("config-secret", "SECRET", "credential", (
        (_keyed("secret|secret_key|client_secret|private_key"), 0.8),
        (_keyed_zh("密钥"), 0.8),
    ), validate=_config_secret),
    PatternRecognizer("config-token", "TOKEN", "credential", (
        (_keyed("api_key|apikey|access_key|auth_token|token|session|session_?id"), 0.8),
        (r"[?&](?:session|session_?id|sid|token|access_token|api_?key|key)=(?P<value>[^\s&#\"'<>()\[\]]{6,})", 0.85),
    ), validate=_config_secret),
    PatternRecognizer("noted-password", "PASSWORD", "credential", (
        (r"(?:(?<![\w-])[Pp]ass|_(?i:pass))[\"']?\s*[:=]\s*(?:[bru]?[\"'])?(?P<value>[^\s\"',;]{6,})", 0.8),
    ), validate=_noted_password),
]
