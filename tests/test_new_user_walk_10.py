"""Session 21, tenth walk: figures a new user reads off `intercept serve`, `annotate prelabel`, `audit
--discover`, `audit` and `report` on inputs written here as other tools and authors write theirs, each checked
against a count made by hand."""

import signal


def test_a_stopped_interceptor_says_why_a_cost_is_unknown_in_the_words_audit_uses(standin, tmp_path):
    """`intercept serve` in front of the stand-in, stopped by SIGTERM after three calls: gpt-4o (priced),
    `acme-ft-7b`, a fine-tune no price list knows, answered with its usage, and a streamed call whose connection
    the cloud dropped (`fault-cut`: no usage came). The stand-in counts a token per 4 characters: 9 in the 36 of
    the prompt, 10 in the 42 of its echo. By hand: gpt-4o costs (9 × $2.50 + 10 × $10) / 1e6 = $0.000122;
    `acme-ft-7b … USD unknown: no price for the model`, `fault-cut … USD unknown: no usage logged`, the words
    `audit`'s provider table uses. Before: `USD unknown (1 of 1 unpriced)` for both, which says neither why."""
    import httpx
    from intercept_helpers import serve_cli

    _, upstream = standin
    store, log = tmp_path / "intercept.sqlite", tmp_path / "serve.log"
    proc, url = serve_cli(upstream, store, log, "sk-upstream")
    try:
        for model, stream in (("gpt-4o", False), ("acme-ft-7b", False), ("fault-cut", True)):
            try:
                httpx.post(f"{url}/v1/chat/completions", timeout=20, json={
                    "model": model, "stream": stream,
                    "messages": [{"role": "user", "content": "Summarise the claim of Will Hartley."}]}).read()
            except httpx.HTTPError:
                pass
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) == 0, log.read_text()
    said = log.read_text()
    assert "stopped: 3 calls recorded in" in said
    assert "  gpt-4o: 1 call, 9 input / 10 output tokens, USD 0.00012\n" in said  # (9 × 2.5 + 10 × 10) / 1e6
    assert "  acme-ft-7b: 1 call, 9 input / 10 output tokens, USD unknown: no price for the model\n" in said
    assert "  fault-cut: 1 call, 0 input / 0 output tokens, USD unknown: no usage logged\n" in said
