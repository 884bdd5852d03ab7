"""`tabsteward batch`: several tool commands in one process, in order, each under its heading;
the first that fails stops the rest, and a batch that cannot be read runs nothing."""

from __future__ import annotations

import json
import os
import subprocess
from typing import Any

import fixture_server
import pytest
from hub_env import BIN, Hub

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


def posts(site: fixture_server.Site) -> list[str]:
    return [r.path for r in site.requests if r.method == "POST"]


def test_a_batch_fills_a_form_and_submits_it_each_output_under_its_heading(
        hub: Hub, site: fixture_server.Site) -> None:
    assert hub.cli("open", site.url("form.html")).returncode == 0
    done = hub.cli("batch", "fill #email ada@example.org", "fill #pw 'tiger lily'",
                   "click '#signup button[type=submit]'")
    assert done.returncode == 0, done.stderr
    headings = [line for line in done.stdout.splitlines() if line.startswith("[")]
    assert headings == ["[1/3] fill", "[2/3] fill", "[3/3] click"]
    assert done.stdout.index("[2/3]") < done.stdout.index("[3/3]")
    assert "tiger" not in done.stdout + done.stderr  # the heading names no value
    assert hub.cli("wait", "--text", "submitted ada@example.org").returncode == 0


def test_a_heading_names_the_targets_ref_and_never_a_value_that_looks_like_one(
        hub: Hub, site: fixture_server.Site) -> None:
    opened = hub.cli("open", site.url("form.html"), "-i").stdout
    [pw] = [line.rsplit("@", 1)[1].split()[0] for line in opened.splitlines()
            if line.startswith('- textbox "Password"')]
    done = hub.cli("batch", f"fill @{pw} @4821")  # a password that looks like a ref
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"[1/1] fill @{pw}\n")
    assert "4821" not in done.stdout + done.stderr


def test_the_command_that_fails_stops_the_batch_and_the_ones_after_it_send_nothing(
        hub: Hub, site: fixture_server.Site) -> None:
    assert hub.cli("open", site.url("chat.html")).returncode == 0
    before = posts(site)
    stopped = hub.cli("batch", "fill textarea 'hello all'", "click @999",
                      "click 'button[type=submit]'")
    assert stopped.returncode != 0
    assert "[1/3] fill" in stopped.stdout
    assert "[3/3]" not in stopped.stdout
    assert "batch stopped at command 2 of 3 (click), which failed; the one after it was " \
        "not run" in stopped.stderr
    assert posts(site) == before  # the submit after the failure never went


@pytest.mark.parametrize(("commands", "says"), [
    (["fill textarea hi", "click 'button[type=submit]"], "cannot be read"),
    (["fill textarea hi", "clik @3"], "unknown command 'clik' (did you mean click"),
    (["fill textarea hi", "approve 7"], "agents' tool commands only"),
    (["fill textarea hi", "batch 'click @3'"], "cannot hold another"),
    (["fill textarea hi", "serve"], "agents' tool commands only"),
    (["fill textarea hi", "--json"], "no command word"),
    (["# only a comment", ""], "no command given"),
    ([f"tabs {i}" for i in range(101)], "at most 100"),
])
def test_a_batch_that_cannot_be_read_whole_runs_none_of_it(
        hub: Hub, site: fixture_server.Site, commands: list[str], says: str) -> None:
    assert hub.cli("open", site.url("chat.html")).returncode == 0
    refused = hub.cli("batch", *commands)
    assert refused.returncode == 2
    assert says in refused.stderr, refused.stderr
    assert "nothing was run" in refused.stderr
    assert refused.stdout == ""
    assert 'value="hi"' not in hub.cli("snapshot").stdout  # not even the first fill


def test_a_batch_reads_stdin_and_with_json_gives_each_command_its_own_reply(
        hub: Hub, site: fixture_server.Site) -> None:
    assert hub.cli("open", site.url("chat.html")).returncode == 0
    done = hub.cli("--json", "batch", typed="fill textarea 'from stdin'\n\n# a note\n"
                   "snapshot -i\n")
    assert done.returncode == 0, done.stderr
    replies: list[Any] = []
    text = done.stdout.strip()
    while text:
        reply, end = json.JSONDecoder().raw_decode(text)
        replies.append(reply)
        text = text[end:].strip()
    assert len(replies) == 2  # no headings among them
    assert 'value="from stdin"' in replies[1]["text"]


def test_global_options_before_batch_apply_to_each_command_even_a_value_named_batch(
        hub: Hub, site: fixture_server.Site) -> None:
    assert hub.cli("--agent", "batch", "open", site.url("chat.html")).returncode == 0
    done = hub.cli("--agent", "batch", "batch", "tabs", "snapshot -i")
    assert done.returncode == 0, done.stderr
    assert "[1/2] tabs" in done.stdout
    assert '[2/2] snapshot\n[untrusted page data' in done.stdout
    assert 'textbox "Message #general"' in done.stdout  # the agent "batch"'s own tab


def test_batch_help_says_how_it_stops_without_asking_a_hub() -> None:
    helped = subprocess.run([BIN, "batch", "--help"], capture_output=True, text=True,
                            timeout=30, env={**os.environ, "TABSTEWARD_NO_AUTOSTART": "1"})
    assert helped.returncode == 0
    assert "stop at the first that" in helped.stdout
    assert "fails" in helped.stdout
