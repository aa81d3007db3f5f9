"""``mechbench eval``'s arguments: mechbench's defaults where the user gave none, the user's choice otherwise."""

from __future__ import annotations

from mechbench.cli.eval_argv import eval_argv, eval_retry_argv, shown_command


def option(argv: list[str], flag: str) -> list[str]:
    return [argv[i + 1] for i, a in enumerate(argv) if a == flag]


def test_defaults_are_added() -> None:
    argv = eval_argv("sphyr", ["--model", "openai/gpt-4.1", "-T", "subject=all"])
    assert argv[:2] == ["eval", "mechbench/sphyr"]
    assert option(argv, "--retry-on-error") == ["3"] and option(argv, "--log-buffer") == ["1"]
    assert option(argv, "--log-level-transcript") == ["http"]
    assert option(argv, "-M") == ["max_retries=0"]
    assert argv.count("--continue-on-fail") == 1  # a flag, no value


def test_the_users_choices_win() -> None:
    args = ["--model=openai-api/x/y", "--retry-on-error=0", "--log-buffer", "10", "-M", "max_retries=5"]
    argv = eval_argv("structural_eval", args)
    assert argv.count("--log-buffer") == 1 and "--retry-on-error" not in argv
    assert option(argv, "-M") == ["max_retries=5"]


def test_sdk_retries_are_left_alone_for_other_providers() -> None:
    assert "-M" not in eval_argv("seesim", ["--model", "anthropic/claude-sonnet-4-0"])
    assert "-M" not in eval_argv("seesim", ["--model", "openai/gpt-4.1,anthropic/claude-sonnet-4-0"])
    assert eval_argv("my_tasks.py@t", [])[1] == "my_tasks.py@t"


def test_retry_keeps_the_log_and_adds_defaults() -> None:
    argv = eval_retry_argv(["logs/run.eval"], ["--max-connections", "4"])
    assert argv[:2] == ["eval-retry", "logs/run.eval"] and option(argv, "--log-buffer") == ["1"]
    assert "-M" not in argv  # model arguments come from the log


def test_the_printed_command_masks_secrets() -> None:
    line = shown_command(
        ["eval", "-M", "api_key=sk-live-123", "--model-arg=token=abc", "--model-base-url", "https://u:pw@h/v1?key=z"]
    )
    for secret in ("sk-live-123", "abc", "pw", "key=z"):
        assert secret not in line
    assert "api_key=***" in line and "https://***@h/v1?key=***" in line
