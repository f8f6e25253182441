"""The options that export findings as OpenTelemetry spans (`ec2audit.report.otel_export`), shared by
`audit` and `intercept audit`."""

from __future__ import annotations

import click

from ec2audit.errors import InputError

OTLP_ENDPOINT = click.option(
    "--otlp-endpoint", metavar="URL",
    help="Also send the findings as OpenTelemetry spans over OTLP/HTTP to URL (Phoenix: http://127.0.0.1:6006; "
         "/v1/traces is added to a base URL). Headers from OTEL_EXPORTER_OTLP_TRACES_HEADERS. Values masked.")
KEEP_EVIDENCE = click.option(
    "--keep-evidence", is_flag=True,
    help="With --otlp-endpoint: export each leaked value in clear text (default: masked to its form, ###-####).")


def check_otlp(endpoint: str | None, keep_evidence: bool) -> None:
    """Usage errors before any work: a URL that is not one, --keep-evidence with nothing to export."""
    if keep_evidence and not endpoint:
        raise InputError("--keep-evidence only says what --otlp-endpoint exports: give --otlp-endpoint URL",
                         field="--keep-evidence")
    if endpoint:
        from ec2audit.extras import require_extra
        from ec2audit.report.otel_export import traces_url

        traces_url(endpoint)
        require_extra("otel")
