"""The hub's gate: every action an agent asks for is rated by policy here, held for the
person when it must be, and its decision written to the activity log."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from typing import TYPE_CHECKING, Any

from ..errors import PolicyError, TabstewardError
from ..policy.categories import Category, Rule
from ..policy.classify import Verdict, decide
from ..policy.describe import element_of, page_of, place
from ..policy.grants import Grants
from ..policy.netrules import NetGuard, net_guard
from ..policy.profiles import Config, Profile
from ..policy.screen import screens, stop_reason
from ..policy.sites import site_of
from ..policy.watch import ConfigFile
from ..records.redact import REDACTOR
from .approvals import Answer, Approvals, Question

if TYPE_CHECKING:
    from ..engine.tab import Tab
    from ..policy.intent import Intent
    from ..records.activity import ActivityLog

log = logging.getLogger("tabsteward.hub")

PICTURE_SECONDS = 3.0  # a question waits this long at most for the picture of its target


class _OnceToo:
    """The grants as `decide` reads them, where an 'allow once' also counts (and is used)
    when it was given for the same subject (the same script)."""

    def __init__(self, grants: Grants, subject: str) -> None:
        self.grants = grants
        self.subject = subject

    def allows(self, profile: str, site: str, category: Category) -> bool:
        return (self.grants.allows(profile, site, category)
                or self.grants.take_once(profile, site, category, self.subject))


def once_subject(intent: Intent) -> str:
    """What an 'allow once' is for beyond its site and category: an eval's script, by its
    SHA-256, so allowing one script once allows no other."""
    return intent.extra.get("sha256", "") if intent.action == "eval" else ""


class PolicyGate:
    """Answers the engine's `permit`: returns to let an action run, raises PolicyError."""

    def __init__(self, config: Config | ConfigFile, grants: Grants, approvals: Approvals,
                 activity: ActivityLog | None = None, *, allow_eval: bool = False) -> None:
        # a policy file is re-read when the person edits it (by hand or in the tray app)
        self.config_file = config if isinstance(config, ConfigFile) else None
        self._config = config if isinstance(config, Config) else None
        self.grants = grants
        self.approvals = approvals
        self.activity = activity
        self.allow_eval = allow_eval
        self.pictures = False  # the tray app shows each question with a picture of its target

    @property
    def config(self) -> Config:
        if self.config_file is not None:
            return self.config_file.current()
        assert self._config is not None
        return self._config

    def profile(self, agent: str) -> Profile:
        profile = self.config.profile_for(agent)
        if self.allow_eval:  # `serve --allow-eval`: the person lets every agent run script
            profile = dataclasses.replace(profile, rules={**profile.rules,
                                                          Category.EVAL: Rule.ALLOW})
        return profile

    def max_tabs(self, agent: str) -> int:
        """The most tabs the agent's profile lets it have open in one browser."""
        return self.profile(agent).max_tabs

    @property
    def own_files(self) -> tuple[str, ...]:
        """The policy file in use: no agent may write it, wherever it is."""
        path = self.config_file.path if self.config_file is not None else \
            (self._config.source if self._config is not None else None)
        return (str(path),) if path is not None else ()

    async def __call__(self, tab: Tab, intent: Intent) -> None:
        profile = self.profile(tab.principal or tab.agent)
        verdict = decide(intent, profile, _OnceToo(self.grants, once_subject(intent)))
        if intent.text and any(f.category is Category.CREDENTIALS for f in verdict.findings):
            REDACTOR.add(intent.text)  # a password or card number: never shown again
        if verdict.rule is Rule.ALLOW:
            if verdict.findings:
                self._log(tab.agent, intent, verdict, "allow", "policy")
            return
        facts = _facts(profile, verdict, intent)
        if not verdict.denied_site:
            facts["image"] = await self._picture(tab, intent)
        if verdict.rule is Rule.BLOCK:
            raise self._block(tab.agent, profile, intent, verdict, facts)
        closed = tab.expect(lambda m, p, s: False)  # ends (with TabError) when the tab closes
        try:
            answer = await self.approvals.ask(
                "ask", tab.agent, verdict.summary, profile.ask_timeout, until=closed,
                **facts)
        finally:
            if closed.done() and not closed.cancelled():
                closed.exception()  # retrieved: the tab closed, which the answer says
            closed.cancel()
        self._log(tab.agent, intent, verdict, _decision(answer), answer.who)
        if not answer.approved:
            raise PolicyError(f"{answer.by}: {verdict.summary}. Nothing was done",
                              categories=_names(verdict), site=verdict.site)
        if answer.always:
            for finding in verdict.findings:
                self.grants.add(profile.name, verdict.site, finding.category)
            self._log(tab.agent, intent, verdict, "granted always", answer.who)

    # -- document requests the agent did not ask for (engine/screen.py) --
    def screens(self, tab: Tab) -> bool:
        return screens(self.profile(tab.principal or tab.agent).sites)

    def net_guard(self, tab: Tab) -> NetGuard:
        """What the browser itself blocks for the tab's profile (no debugger needed)."""
        return net_guard(self.profile(tab.principal or tab.agent))

    def screen(self, tab: Tab, url: str, *, redirect: bool, main: bool) -> str:
        """Why a page's document request must not leave ("" when it may); a stop is logged."""
        profile = self.profile(tab.principal or tab.agent)
        why = stop_reason(url, profile, redirect=redirect, main=main,
                          granted=lambda site, c: self.grants.allows(profile.name, site, c))
        if why:
            what = "a redirect" if redirect else "the page's request" if main else \
                "a frame's request"
            log.info("policy: stopped %s of agent %s's tab before it left: %s", what,
                     tab.agent, why)
            if self.activity is not None:
                self.activity.append("decision", agent=tab.agent, tool="navigate",
                                     site=site_of(url), decision="block", decided_by="policy",
                                     summary=f"{what} to {place(url)} from "
                                             f"{page_of(tab.state.url)}",
                                     reason=f"{why}; stopped before the request was sent",
                                     data={"policy": "block"})
        return why

    async def _picture(self, tab: Tab, intent: Intent) -> bytes | None:
        """A picture of the target in its page, when the person's window shows one."""
        box = intent.element.box if intent.element is not None else None
        if not self.pictures or box is None:
            return None
        from ..engine.files import picture
        try:
            return await asyncio.wait_for(picture(tab, box), PICTURE_SECONDS)
        except (TabstewardError, TimeoutError, KeyError, ValueError) as exc:
            log.info("no picture of the target for the person: %s",
                     getattr(exc, "message", None) or type(exc).__name__)
            return None

    def _block(self, agent: str, profile: Profile, intent: Intent, verdict: Verdict,
               facts: dict[str, Any]) -> PolicyError:
        self._log(agent, intent, verdict, "block", "policy")
        what = ", ".join(f.category.label for f in verdict.findings) or "this site"
        if verdict.denied_site:
            return PolicyError(
                f"policy profile {profile.name!r} denies the site {verdict.site}: "
                f"{verdict.summary}. Nothing was done (the person may change the profile's "
                "deny_sites in policy.toml)", site=verdict.site, categories=_names(verdict))

        def answered(q: Question, answer: Answer) -> None:
            if not answer.approved:
                return
            for finding in verdict.findings:
                if answer.always:
                    self.grants.add(profile.name, verdict.site, finding.category)
                else:
                    self.grants.add_once(profile.name, verdict.site, finding.category,
                                         once_subject(intent))
            self._log(agent, intent, verdict,
                      "override always" if answer.always else "override once", answer.who)

        q = next((o for o in self.approvals.open()  # a retry does not ask the person again
                  if o.kind == "blocked" and o.agent == agent and o.summary == verdict.summary
                  and (o.site, o.profile, o.categories) == (facts["site"], facts["profile"],
                                                            facts["categories"])), None)
        if q is None:
            q = self.approvals.offer(agent, verdict.summary, answered, **facts)
        return PolicyError(
            f"policy profile {profile.name!r} blocks {what}: {verdict.summary}. Nothing was "
            f"done. The person has been shown it as {q.id} and may allow it once or always; "
            "try again after they do", approval=q.id, site=verdict.site,
            categories=_names(verdict))

    def _log(self, agent: str, intent: Intent, verdict: Verdict, decision: str,
             by: str) -> None:
        log.info("policy: %s %s by %s (agent %s, %s)", intent.action, decision, by, agent,
                 ", ".join(_names(verdict)) or "no risk found")
        if self.activity is not None:
            self.activity.append("decision", agent=agent, tool=intent.action,
                                 site=verdict.site, summary=verdict.summary,
                                 decision=decision, decided_by=by,
                                 reason="; ".join(f.reason for f in verdict.findings),
                                 data={"policy": verdict.rule.value})


def _names(verdict: Verdict) -> list[str]:
    return [f.category.value for f in verdict.findings]


def _facts(profile: Profile, verdict: Verdict, intent: Intent) -> dict[str, Any]:
    return {"site": verdict.site, "profile": profile.name,
            "categories": tuple(_names(verdict)),
            "reasons": tuple(f.reason for f in verdict.findings),
            "target": element_of(intent.element) if intent.element is not None else ""}


def _decision(answer: Answer) -> str:
    """The activity log's word for how a question ended."""
    if answer.approved:
        return "approved"
    return answer.who if answer.who in ("timeout", "withdrawn") else "denied"
