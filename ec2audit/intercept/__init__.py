"""The interceptor: an auditing proxy on the edge→cloud channel (records, cost, inline audit, redaction)."""
