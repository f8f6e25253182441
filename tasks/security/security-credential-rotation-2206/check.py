"""Checker: leaked secrets replaced by references in place, the rest of each config kept, a rotation list
that names settings and files but no value anywhere."""

from pathlib import Path

from ec2audit.taskcheck import fraction, leaked, read_text

EXPECTED: dict = {'files': ['app/settings.py',
           'deploy/docker-compose.yml',
           'ci/pipeline.env',
           'scripts/backup.sh',
           'ops/monitoring.ini'],
 'kept': [('app/settings.py', 'API_HOST = "10.61.152.77"\n'),
          ('deploy/docker-compose.yml', '      API_HOST: "10.130.58.131"\n'),
          ('ci/pipeline.env', 'API_HOST=10.65.134.34\n'),
          ('scripts/backup.sh', "export API_HOST='10.120.49.70'\n"),
          ('ops/monitoring.ini', 'API_HOST = 10.199.114.200\n')],
 'output': 'ROTATE.md',
 'secrets': [{'file': 'app/settings.py',
              'name': 'SLACK_TOKEN_00',
              'value': 'xoxb-Ic3PoOlyXQvJVR2CZCTox9M4FYeh7bE9usA4MsX1'},
             {'file': 'app/settings.py',
              'name': 'STRIPE_KEY_01',
              'value': 'sk_live_SUnPj4kOY665Jj97oW15OZ2KTzGm'},
             {'file': 'app/settings.py', 'name': 'AWS_ACCESS_KEY_02', 'value': 'AKIABPN77CJ6AB2YEEOY'},
             {'file': 'deploy/docker-compose.yml', 'name': 'DB_PASSWORD_10', 'value': '7cta53qz6J8YPhiud1'},
             {'file': 'deploy/docker-compose.yml',
              'name': 'GITHUB_TOKEN_11',
              'value': 'ghp_K8eg50ea4AN3ZJcWhaK03WkebwPtwUjOlhcz'},
             {'file': 'deploy/docker-compose.yml',
              'name': 'OPENAI_KEY_12',
              'value': 'sk-proj-pvi5Z5F0RPHfhkKMY6P1cMTQ9Vxn7IimuFwAxjsu'},
             {'file': 'ci/pipeline.env',
              'name': 'SLACK_TOKEN_20',
              'value': 'xoxb-m6BTBfMrPeWk7ItQMDPRqOOvfO8fyej6M5BiGb58'},
             {'file': 'ci/pipeline.env',
              'name': 'STRIPE_KEY_21',
              'value': 'sk_live_ke8SilvfydbQ8Dh0un9tcMHPjlyg'},
             {'file': 'ci/pipeline.env', 'name': 'AWS_ACCESS_KEY_22', 'value': 'AKIAIM7VVNVLARV2ZQYL'},
             {'file': 'scripts/backup.sh', 'name': 'DB_PASSWORD_30', 'value': 'JKY3IGSspHnQ3AjNOv'},
             {'file': 'scripts/backup.sh',
              'name': 'GITHUB_TOKEN_31',
              'value': 'ghp_jH3oQxLm019HIMuLabArqJKxeeJRaIRC26pb'},
             {'file': 'scripts/backup.sh',
              'name': 'OPENAI_KEY_32',
              'value': 'sk-proj-7i1YZykdeyrdYs8uVhl2PG9KMSeJcAZbcxEpC4hl'},
             {'file': 'ops/monitoring.ini',
              'name': 'SLACK_TOKEN_40',
              'value': 'xoxb-iZpBXvJ7k6wYniuzhbUD0smTa7ScQOIjdAKOROsz'},
             {'file': 'ops/monitoring.ini',
              'name': 'STRIPE_KEY_41',
              'value': 'sk_live_tsNNzr84ipC3OHCtLUKYufjeLeWy'},
             {'file': 'ops/monitoring.ini', 'name': 'AWS_ACCESS_KEY_42', 'value': 'AKIA6YOOEFXNFPYFWBZE'}]}


def check(workspace: Path, service_log: Path | None) -> dict[str, bool | float]:
    files = {f: read_text(workspace, f) or "" for f in EXPECTED["files"]}
    rotated = [s for s in EXPECTED["secrets"] if s["value"] not in files[s["file"]]
               and "${" + s["name"] + "}" in files[s["file"]]]
    listing = read_text(workspace, EXPECTED["output"]) or ""
    listed = [s for s in EXPECTED["secrets"] if s["name"] in listing and s["file"] in listing]
    everything = listing + "".join(files.values())
    return {
        "rotated": fraction(len(rotated), len(EXPECTED["secrets"])),
        "config_kept": bool(rotated) and all(line in files[f] for f, line in EXPECTED["kept"]),
        "listed": fraction(len(listed), len(EXPECTED["secrets"])),
        "no_sensitive": bool(rotated) and not leaked(everything, [s["value"] for s in EXPECTED["secrets"]]),
    }
