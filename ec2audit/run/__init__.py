"""The benchmark runner: OpenClaw episodes behind a strategy gateway, every cloud payload audited."""
