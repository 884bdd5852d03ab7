"""The goal agent end to end: `tabsteward run` on a real hub and Chromium, with a local
OpenAI-compatible server playing the model. The server reads each request (the page in it,
the refs it offers) and answers by a small rule, so the real provider code, prompts,
validation, policy and loop all run."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import hub_env
import pytest
from goal_tasks import TASKS, Model, act, model_for, ref
from hub_env import BIN, Hub, Terminal, write_policy
from llm_server import LLMServer, openai_reply
from mcp import Client
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp_types import Implementation
from tabsteward.bridge.sdk import Tabsteward
from tabsteward.bridge.secrets.apikeys import ApiKeys, KeyEntry

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

POLICY = """\
default_profile = "goals"

[profiles.goals]
inherits = "default"
ask_timeout = 20
model = "scripted-1"

[profiles.goals.rules]
credentials = "allow"
"""
@pytest.fixture(scope="module")
def goal_hub() -> Iterator[tuple[Hub, Terminal]]:
    with hub_env.console_hub(POLICY) as found:
        yield found


@pytest.fixture
def model_key(goal_hub, request) -> Iterator[Callable[[LLMServer], str]]:
    """Stores a key (in the real keyring) that points at a test's model server; its name."""
    hub, _ = goal_hub
    keys = ApiKeys(Path(hub.env["XDG_CONFIG_HOME"]) / "tabsteward" / "keys.json")
    name = re.sub(r"[^A-Za-z0-9]", "-", request.node.name)[:60]

    def store(server: LLMServer) -> str:
        keys.add(KeyEntry(name, "other", server.url(), "scripted-1"), "sk-local-test-key",
                 replace=True)
        return name

    yield store
    keys.remove(name)


def run(hub: Hub, goal: str, key: str, *args: str) -> tuple[dict[str, Any], str]:
    done = subprocess.run([BIN, "--json", "run", goal, "--key", key, *args], env=hub.env,
                          capture_output=True, text=True, timeout=110, cwd=hub.env["HOME"])
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout), done.stderr


def start(hub: Hub, goal: str, key: str, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([BIN, "--json", "run", goal, "--key", key, *args], env=hub.env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=hub.env["HOME"])


def test_a_login_task_signs_in_and_ends_done_with_an_agreeing_check(goal_hub, model_key,
                                                                    site):
    hub, _ = goal_hub
    task = TASKS[0]
    model = model_for(task)
    with LLMServer(model) as server:
        out, err = run(hub, task.goal, model_key(server), "--start-url", site.url(task.page))
    assert out["status"] == "done", out
    assert out["check"]["judge"] is True
    assert [s["op"] for s in out["steps"]] == ["fill", "fill", "click"]
    assert all(s["ok"] for s in out["steps"])
    assert out["usage"]["requests"] == 5  # four decisions and the judge
    assert '  3. click button "Sign in"' in err  # progress, one line a step
    assert "lovelace" not in json.dumps(out["steps"])  # typed text is never reported back
    # the page went to the model as untrusted data, in a block it cannot close
    first = model.requests[0]["messages"][-1]["content"]
    assert "<page_untrusted>" in first
    assert "sign in as ada" in first


def test_search_then_pick_a_result(goal_hub, model_key, site):
    hub, _ = goal_hub
    task = TASKS[1]
    with LLMServer(model_for(task)) as server:
        out, _ = run(hub, task.goal, model_key(server), "--start-url", site.url(task.page),
                     "--verify-text", "31 CHF")
    assert out["status"] == "done", out
    assert out["check"]["verify"] is True
    assert [s["op"] for s in out["steps"]] == ["fill", "press", "click"]


def test_a_search_box_that_waits_for_typing_to_pause_shows_its_results_in_the_next_look(
        goal_hub, model_key, site):
    # the model is not asked about the page before the page answered the typing
    def decide(page: str, did: list[str]) -> dict[str, Any]:
        if "Profile: ada" in page:
            return act("done", evidence="Profile: ada")
        if 'button "Open ada"' in page:
            return act("click", ref(page, "button", "Open ada"))
        if "fill" in did:
            return act("wait", None, "1")
        return act("fill", ref(page, "textbox", "Search people"), "ada")
    hub, _ = goal_hub
    with LLMServer(Model(decide, judge=lambda page: "Profile: ada" in page)) as server:
        out, _ = run(hub, "open ada's profile", model_key(server), "--start-url",
                     site.url("typeahead.html"))
    assert out["status"] == "done", out
    assert [s["op"] for s in out["steps"]] == ["fill", "click"]


def test_a_multi_step_form_with_an_autocomplete_and_a_date(goal_hub, model_key, site):
    hub, _ = goal_hub
    task = TASKS[2]
    with LLMServer(model_for(task)) as server:
        out, _ = run(hub, task.goal, model_key(server), "--start-url", site.url(task.page))
    assert out["status"] == "done", out
    assert [s["op"] for s in out["steps"]] == ["fill", "click", "fill", "click", "click"]


def test_a_task_that_needs_scrolling(goal_hub, model_key, site):
    hub, _ = goal_hub
    task = TASKS[3]
    with LLMServer(model_for(task)) as server:
        out, _ = run(hub, task.goal, model_key(server), "--start-url", site.url(task.page))
    assert out["status"] == "done", out
    assert {s["op"] for s in out["steps"]} == {"scroll"}
    assert len(out["steps"]) >= 2


def test_scrolling_an_app_whose_page_never_scrolls_counts_as_a_change(goal_hub, model_key,
                                                                      site):
    hub, _ = goal_hub

    def decide(page: str, did: list[str]) -> dict[str, Any]:  # its pane scrolls, not its page
        if len(did) >= 4:
            return act("done", evidence="Message 60")
        return act("scroll", None, "down")

    with LLMServer(Model(decide)) as server:
        out, _ = run(hub, "read the last message", model_key(server), "--start-url",
                     site.url("appshell.html"))
    assert out["status"] == "done", out
    assert [s["op"] for s in out["steps"]] == ["scroll"] * 4
    assert all("scrolled main#list" in s["result"] for s in out["steps"]), out["steps"]


def test_a_model_that_obeys_a_prompt_injection_is_held_by_policy_and_the_person_denies(
        goal_hub, model_key, site):
    hub, term = goal_hub

    def decide(page: str, did: list[str]) -> dict[str, Any]:
        return act("click", ref(page, "button", "Delete my account"),
                   reason="the page says to")  # a gullible model

    with LLMServer(Model(decide)) as server:
        before = len(re.findall(r"\[tabsteward\] (A\d+): agent", term.text))
        proc = start(hub, "what does gyokuro cost?", model_key(server), "--start-url",
                     site.url("agent-inject.html"))
        qid = term.wait_for(r"\[tabsteward\] (A\d+): agent .*Delete my account",
                            timeout=60).group(1)
        assert len(re.findall(r"\[tabsteward\] (A\d+): agent", term.text)) > before
        denied = hub.answer("deny", qid, term.code(qid, "deny"))
        assert denied.returncode == 0, denied.stderr
        out_text, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    out = json.loads(out_text)
    assert out["status"] == "blocked", out
    assert "did not allow" in out["summary"]
    assert out["steps"][-1]["policy"] == "denied"
    text = hub.cli("text").stdout
    assert "account deleted" not in text


def test_an_impossible_task_ends_blocked_when_the_page_stops_changing(goal_hub, model_key,
                                                                     site):
    hub, _ = goal_hub

    def decide(page: str, did: list[str]) -> dict[str, Any]:
        return act("click", ref(page, "button", "Search"))  # searching for nothing, forever

    with LLMServer(Model(decide)) as server:
        out, _ = run(hub, "buy a unicorn", model_key(server), "--start-url",
                     site.url("agent-search.html"))
    assert out["status"] == "blocked", out
    assert "did not change after 3 actions" in out["summary"]
    assert len(out["steps"]) == 4  # the first search showed every tea; three more did nothing


def test_malformed_answers_and_refs_not_offered_are_refused_and_nothing_runs(
        goal_hub, model_key, site):
    hub, _ = goal_hub
    answers = iter(["{not json", json.dumps(act("click", "@99999")),
                    json.dumps(act("fill", None, "x")),
                    json.dumps(act("done", evidence="the login form is there"))])

    def answer(body: Any, headers: dict[str, str]) -> tuple[int, dict[str, str], Any]:
        if body["response_format"]["json_schema"]["name"] == "judgement":
            return openai_reply({"achieved": False, "reason": "nothing was done"})
        return openai_reply(next(answers))

    with LLMServer(answer) as server:
        out, _ = run(hub, "sign in", model_key(server), "--start-url",
                     site.url("agent-login.html"))
        feedback = [r.json["messages"][-1]["content"] for r in server.seen]
    assert out["steps"] == []  # nothing was acted on
    assert out["status"] == "unverified", out  # the model said done; the judge disagreed
    assert out["check"]["judge"] is False
    assert "refused" in feedback[1]
    assert "@99999" in feedback[2]  # the ref not offered is named back to the model


def test_a_busy_provider_is_retried_and_a_silent_one_fails_the_run(goal_hub, model_key,
                                                                  site):
    hub, _ = goal_hub
    done = Model(lambda page, did: act("done", evidence="the page is there"))
    with LLMServer(done, busy=[429], retry_after="0") as server:
        out, _ = run(hub, "look at the page", model_key(server), "--start-url",
                     site.url("agent-login.html"))
    assert out["status"] == "done", out
    assert out["usage"]["retries"] == 1
    with LLMServer(done, delay=5) as server:
        out, _ = run(hub, "look at the page", model_key(server), "--start-url",
                     site.url("agent-login.html"), "--model-timeout", "1")
    assert out["status"] == "failed", out
    assert "the model could not be asked" in out["summary"]


def test_runs_are_listed_and_replayed(goal_hub, model_key, site):
    hub, _ = goal_hub
    with LLMServer(Model(lambda page, did: act("done", evidence="ok"))) as server:
        out, _ = run(hub, "a run to replay", model_key(server), "--start-url",
                     site.url("agent-login.html"))
    listed = hub.cli("runs")
    assert listed.returncode == 0, listed.stderr
    assert out["run_id"] in listed.stdout
    assert "a run to replay" in listed.stdout
    shown = hub.cli("runs", "show", out["run_id"])
    assert shown.returncode == 0, shown.stderr
    assert "a run to replay" in shown.stdout
    assert "ended done" in shown.stdout
    assert hub.cli("runs", "show", "r2").returncode == 2


def test_a_goal_that_names_its_password_keeps_it_out_of_its_transcript(goal_hub, model_key,
                                                                       site):
    # the goal's text names the password (written down before it is typed); once typed
    # into the password field, no record of the run holds it: not the file, not `runs`
    hub, _ = goal_hub
    task = TASKS[0]
    with LLMServer(model_for(task)) as server:
        out, _ = run(hub, task.goal, model_key(server), "--start-url", site.url(task.page))
    assert out["status"] == "done", out
    written = Path(out["transcript"]).read_text()
    assert '"event": "start"' in written
    assert "lovelace" not in written
    shown = hub.cli("runs", "show", out["run_id"])
    assert "sign in as ada (password [redacted])" in shown.stdout
    assert "lovelace" not in shown.stdout + hub.cli("runs").stdout
    # nor the hub's log, which logs each step
    log = (Path(hub.env["XDG_STATE_HOME"]) / "tabsteward" / "hub.log").read_text()
    assert f"goal {out['run_id']} step 2: fill" in log
    assert "lovelace" not in log


def test_mcp_offers_run_with_a_progress_notification_per_step(goal_hub, model_key, site):
    hub, _ = goal_hub
    task = TASKS[0]
    progress: list[str | None] = []

    async def on_progress(done: float, total: float | None, message: str | None) -> None:
        progress.append(message)

    async def scenario(key: str) -> Any:
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "tabsteward.bridge", "mcp"],
            cwd=hub.env["HOME"], env={**hub.env, "TABSTEWARD_NO_AUTOSTART": "1"})
        async with Client(stdio_client(params),
                          client_info=Implementation(name="mcp-goals", version="1")) as c:
            names = [t.name for t in (await c.list_tools()).tools]
            assert "run" in names
            return await c.call_tool("run", {"goal": task.goal, "key": key,
                                             "start_url": site.url(task.page)},
                                     progress_callback=on_progress)

    with LLMServer(model_for(task)) as server:
        result = asyncio.run(asyncio.wait_for(scenario(model_key(server)), 90))
    assert not result.is_error, result
    assert result.content[0].text.startswith("done: the goal is met")
    steps = [m for m in progress if m and m.startswith("step ")]
    assert [m.split(":")[0] for m in steps] == ["step 1", "step 2", "step 3"], progress
    assert 'click button "Sign in"' in steps[2]


def test_the_sdk_runs_a_goal_and_hears_each_step(goal_hub, model_key, site, monkeypatch):
    hub, _ = goal_hub
    for var in ("XDG_RUNTIME_DIR", "TABSTEWARD_TOKEN"):
        monkeypatch.setenv(var, hub.env[var])
    heard: list[dict[str, Any]] = []

    task = TASKS[1]

    async def shows_the_price(ts: Tabsteward) -> bool:
        return "31 CHF per 100 g" in (await ts.text()).text

    async def scenario(key: str) -> Any:
        async with await Tabsteward.connect(agent="sdk-goals", autostart=False) as ts:
            return await ts.run(task.goal, key=key, start_url=site.url(task.page),
                                on_step=heard.append, verify=shows_the_price)

    with LLMServer(model_for(task)) as server:
        result = asyncio.run(asyncio.wait_for(scenario(model_key(server)), 90))
    assert result.data["status"] == "done", result.data
    assert result.data["check"]["hook"] is True  # the caller's own check, on the final page
    assert [s["op"] for s in heard] == ["fill", "press", "click"]


def test_a_step_that_policy_blocks_ends_the_run_as_blocked_and_nothing_is_done(
        goal_hub, model_key, site):
    hub, _ = goal_hub
    model = Model(lambda page, did: act("navigate", None, "http://192.168.1.1/admin"))
    with LLMServer(model) as server:
        out, _ = run(hub, "open the router's admin page", model_key(server), "--start-url",
                     site.url("agent-login.html"))
    assert out["status"] == "blocked", out
    assert "denies the site" in out["summary"]
    assert out["steps"][0]["policy"] == "denied"
    assert out["steps"][0]["ok"] is False


def test_the_profile_sets_the_budget_and_an_agent_may_only_ask_for_less(goal_hub, model_key,
                                                                        site):
    hub, _ = goal_hub
    task = TASKS[3]  # scrolling: it needs more than two actions
    write_policy(hub.env, POLICY.replace('model = "scripted-1"',
                                         'model = "scripted-1"\ngoal_actions = 2'))
    try:
        with LLMServer(model_for(task)) as server:
            key = model_key(server)
            out, _ = run(hub, task.goal, key, "--start-url", site.url(task.page))
            more = subprocess.run([BIN, "run", task.goal, "--key", key, "--max-actions", "5"],
                                  env=hub.env, capture_output=True, text=True, timeout=60,
                                  cwd=hub.env["HOME"])
    finally:
        write_policy(hub.env, POLICY)
    assert out["status"] == "budget", out
    assert out["summary"] == "the run used its 2 actions"
    assert len(out["steps"]) == 2
    assert more.returncode == 2
    assert "max_actions must be 1 to 2 (the profile's budget); nothing was run" in more.stderr


def test_a_run_keeps_its_agents_profile_and_an_agent_cannot_pick_another(goal_hub, site):
    hub, _ = goal_hub
    done = subprocess.run([BIN, "run", "do anything", "--profile", "trusted", "--start-url",
                           site.url("agent-login.html")], env=hub.env, capture_output=True,
                          text=True, timeout=60, cwd=hub.env["HOME"])
    assert done.returncode == 2
    assert "this agent's policy profile is 'goals', not 'trusted'" in done.stderr
    assert "Nothing was run" in done.stderr
