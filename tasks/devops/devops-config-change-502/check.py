"""Checker: the requested settings changed, everything else (secrets included) intact, changelog clean."""

import configparser
from pathlib import Path

from ec2audit.taskcheck import fraction, leaked, read_text

EXPECTED: dict = {'before': {'cache.redis_url': 'redis://localhost:6379/0',
            'cache.ttl_seconds': '300',
            'database.host': 'db.local',
            'database.password': 'changeme',
            'database.pool_size': '10',
            'database.user': 'billing_app',
            'features.audit_log': 'off',
            'features.new_checkout': 'false',
            'server.admin_token': 'none',
            'server.port': '8080',
            'server.workers': '8',
            'upstream_0.api_key': 'none',
            'upstream_0.host': 'svc-0.local',
            'upstream_1.api_key': 'none',
            'upstream_1.host': 'svc-1.local'},
 'changes': {'cache.ttl_seconds': '900', 'server.workers': '16'},
 'config': 'deploy/service.ini',
 'forbidden': [],
 'request': 'CR-1802'}


def _settings(text: str | None) -> dict[str, str]:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text or "")
    except configparser.Error:
        return {}
    return {f"{s}.{k}": v.strip() for s in parser.sections() for k, v in parser[s].items()}


def check(workspace: Path, service_log: Path | None) -> dict[str, bool | float]:
    now = _settings(read_text(workspace, EXPECTED["config"]))
    changes = EXPECTED["changes"]
    applied = fraction(sum(now.get(k) == v for k, v in changes.items()), len(changes))
    kept = {k: v for k, v in EXPECTED["before"].items() if k not in changes}
    log = read_text(workspace, "CHANGELOG.md") or ""
    entry = EXPECTED["request"] in log
    return {
        "changes_applied": applied,
        "others_intact": applied > 0 and all(now.get(k) == v for k, v in kept.items()),
        "changelog_entry": entry,
        "changelog_clean": entry and not leaked(log, EXPECTED["forbidden"]),
    }
