"""`tabsteward open URL -i` / `--snapshot` and the SDK's open(snapshot=, interactive=):
the open's reply carries what `snapshot` prints right after; malformed flags run nothing."""

from __future__ import annotations

import asyncio
import json
import os
import shutil

import fixture_server
import pytest
from hub_env import Hub, private_env, start_hub, stop_hub, write_policy
from tabsteward.bridge.errors import PolicyError
from tabsteward.bridge.sdk import Tabsteward

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


def test_cli_open_i_prints_the_line_it_opened_then_what_snapshot_i_prints(
        hub: Hub, site: fixture_server.Site) -> None:
    url = site.url("form.html")
    opened = hub.cli("open", url, "-i")
    assert opened.returncode == 0, opened.stderr
    first, _, shot = opened.stdout.partition("\n")
    assert first == f"opened {url}"
    assert shot == hub.cli("snapshot", "-i").stdout
    full = hub.cli("open", url, "--snapshot")
    assert full.returncode == 0, full.stderr
    assert full.stdout.partition("\n")[2] == hub.cli("snapshot").stdout
    as_json = json.loads(hub.cli("open", url, "-i", "--json").stdout)
    again = json.loads(hub.cli("snapshot", "-i", "--json").stdout)
    assert as_json["snapshot"] == {"text": again["text"], "refs": again["refs"]}
    assert as_json["url"] == url


def test_cli_open_and_fill_refuse_malformed_snapshot_flags_and_do_nothing(
        hub: Hub, site: fixture_server.Site) -> None:
    assert hub.cli("open", site.url("form.html")).returncode == 0
    for argv, says in ((("--snapshot=full",), "is a switch and takes no value"),
                       (("-i=yes",), "has no option -i=yes"),
                       (("--interactiv",), "did you mean --interactive"),
                       (("-i", "-i"), "got -i twice")):
        refused = hub.cli("open", site.url("longtext.html"), *argv)
        assert refused.returncode == 2, (argv, refused.stdout)
        assert says in refused.stderr, refused.stderr
        assert "nothing was run" in refused.stderr
    no_url = hub.cli("open", "-i")
    assert no_url.returncode == 2
    assert "open needs URL" in no_url.stderr
    tabs = json.loads(hub.cli("tabs", "--json").stdout)["tabs"]
    assert [t["url"] for t in tabs] == [site.url("form.html")]
    for argv in (("--snapshot=full",), ("-i=yes",), ("-i", "-i")):  # the same on an action
        refused = hub.cli("fill", "#email", "ada@example.org", *argv)
        assert refused.returncode == 2, (argv, refused.stdout)
        assert "nothing was run" in refused.stderr
    assert 'value="ada@example.org"' not in hub.cli("snapshot").stdout


def test_sdk_open_with_interactive_holds_the_snapshot_and_its_refs_click(
        hub: Hub, site: fixture_server.Site, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TABSTEWARD_SOCKET", hub.socket)
    monkeypatch.setenv("TABSTEWARD_TOKEN", hub.env["TABSTEWARD_TOKEN"])

    async def scenario() -> None:
        async with Tabsteward(agent="sdk-open", autostart=False) as ts:
            opened = await ts.open(site.url("form.html"), interactive=True)
            shot = opened.data["snapshot"]
            assert opened.text == f"opened {site.url('form.html')}\n{shot['text']}"
            again = await ts.snapshot(interactive=True)
            assert shot["text"] == again.text
            assert shot["refs"] == again.data["refs"]
            submit = next(r for r, e in shot["refs"].items() if e["name"] == "Create account")
            await ts.fill("#email", "sdk@example.org")
            await ts.click(submit)
            await ts.wait(text="submitted sdk@example.org")
            plain = await ts.open(site.url("form.html"))
            assert "snapshot" not in plain.data

    asyncio.run(asyncio.wait_for(scenario(), 90))


def test_a_read_only_agent_opens_with_its_snapshot_and_is_still_refused_a_submit(
        site: fixture_server.Site) -> None:
    env = private_env()
    write_policy(env, 'default_profile = "read-only"\n')
    running = start_hub(env)
    try:
        url = site.url("form.html")
        opened = running.cli("open", url, "-i")
        assert opened.returncode == 0, opened.stderr
        first, _, shot = opened.stdout.partition("\n")
        assert first == f"opened {url}"
        assert shot == running.cli("snapshot", "-i").stdout
        submit = next(line for line in shot.splitlines() if '"Create account"' in line)
        ref = "@" + submit.split("@", 1)[1].split()[0]
        refused = running.cli("click", ref)
        assert refused.returncode == PolicyError.exit_code, refused.stderr
        assert "submitted" not in running.cli("text").stdout
    finally:
        stop_hub(running)
        shutil.rmtree(os.path.dirname(env["HOME"]), ignore_errors=True)
