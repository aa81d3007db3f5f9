"""The one line a failed model call becomes: the cause read out of Inspect's wrapping, and a hint only where a key
or a server could be at fault."""

from __future__ import annotations

from mechbench.cli.provider_errors import cause, one_line


def test_a_quoted_message_ending_in_a_quote_keeps_its_own_quotes() -> None:
    text = """ReplayFileError("no recorded tool conversation for sample 'full_easy-0'")"""
    assert cause(text) == "no recorded tool conversation for sample 'full_easy-0'"
    assert cause("RuntimeError('boom'). Sample will be retried.") == "boom"


def test_a_built_in_models_failure_names_no_key_or_server() -> None:
    line = one_line("mechbench/replay", """ReplayFileError("no recorded reply for sample 'x-1'")""")
    assert line == "mechbench/replay: no recorded reply for sample 'x-1'"


def test_a_providers_refusal_names_what_to_check() -> None:
    line = one_line("openai/gpt-4o", "Error code: 401 - invalid api key", "https://api.example/v1")
    assert line.startswith("openai/gpt-4o at https://api.example/v1: Error code: 401") and "OPENAI_API_KEY" in line
