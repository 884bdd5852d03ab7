"""Profiles from policy.toml: safe defaults, inheritance, and strict refusal of a wrong file."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest
from tabsteward.bridge.errors import UsageError
from tabsteward.bridge.policy import profile_reader, profile_template, profiles
from tabsteward.bridge.policy.categories import Category, Rule, strictest
from tabsteward.bridge.policy.profile_reader import load
from tabsteward.bridge.policy.profile_template import write_default
from tabsteward.bridge.policy.profiles import BUILTIN, Config, Profile

C, A, Q, B = Category, Rule.ALLOW, Rule.ASK, Rule.BLOCK

EXAMPLE = """
default_profile = "default"
[agents]
"claude-code" = "trusted"
"nightly bot" = "work"
[profiles.work]
inherits = "default"
allow_sites = ["*.mycompany.com", "localhost"]
deny_sites = ["file:", "private"]
ask_timeout = 300
[profiles.work.rules]
purchase = "block"
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "policy.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_strictest_orders_block_over_ask_over_allow() -> None:
    assert strictest([A, Q, A]) is Q
    assert strictest([Q, B, A]) is B
    assert strictest([]) is A


def test_every_category_has_a_short_label() -> None:
    assert C.PURCHASE.label == "purchases and payments"
    assert all(c.label for c in Category)
    assert [c.value for c in Category] == [
        "navigate_offsite", "submit", "purchase", "send", "delete", "credentials", "upload",
        "download", "write_files", "account_settings", "eval", "read_storage", "person_tabs"]


def test_a_missing_file_gives_the_safe_defaults_and_is_not_created(tmp_path: Path) -> None:
    path = tmp_path / "policy.toml"
    config = load(path)
    assert config.default_profile == "default"
    assert config.profile_for("anyone") == BUILTIN["default"]
    assert not path.exists()


def test_load_reads_policy_toml_from_the_config_dir(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(profiles, "config_dir", lambda: tmp_path)
    write(tmp_path, 'default_profile = "read-only"\n')
    assert load().profile_for("x").name == "read-only"


def test_the_default_profile_is_the_safe_one() -> None:
    default = BUILTIN["default"]
    assert default.allow_sites == ("*", "localhost")
    assert default.deny_sites == ("file:", "private", "chrome:")
    assert default.ask_timeout == 120
    assert default.rules == {
        C.NAVIGATE_OFFSITE: Q, C.SUBMIT: A, C.PURCHASE: Q, C.SEND: Q, C.DELETE: Q,
        C.CREDENTIALS: Q, C.UPLOAD: Q, C.DOWNLOAD: A, C.WRITE_FILES: Q, C.ACCOUNT_SETTINGS: Q,
        C.EVAL: B, C.READ_STORAGE: B, C.PERSON_TABS: B}


def test_trusted_allows_all_but_script_storage_and_the_persons_tabs_which_ask() -> None:
    trusted = BUILTIN["trusted"]
    asks = {c for c, r in trusted.rules.items() if r is Q}
    assert asks == {C.EVAL, C.READ_STORAGE, C.PERSON_TABS}
    assert all(r is A for c, r in trusted.rules.items() if c not in asks)
    assert trusted.deny_sites == BUILTIN["default"].deny_sites


def test_read_only_blocks_every_risk() -> None:
    assert set(BUILTIN["read-only"].rules.values()) == {B}


def test_the_written_template_is_private_and_loads_as_the_defaults(tmp_path: Path) -> None:
    path = tmp_path / "conf" / "policy.toml"
    assert write_default(path) is True
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    text = path.read_text(encoding="utf-8")
    assert "# purchases and payments" in text
    config = load(path)
    assert config.profiles == Config().profiles
    assert config.default_profile == "default"
    assert config.source == path


def test_the_template_never_overwrites_the_persons_file(tmp_path: Path) -> None:
    path = write(tmp_path, 'default_profile = "trusted"\n')
    assert write_default(path) is False
    assert path.read_text(encoding="utf-8") == 'default_profile = "trusted"\n'


def test_a_profile_overrides_only_the_rules_it_names(tmp_path: Path) -> None:
    config = load(write(tmp_path, EXAMPLE))
    work = config.profiles["work"]
    assert work.rules[C.PURCHASE] is B
    assert {c: r for c, r in work.rules.items() if c is not C.PURCHASE} == \
        {c: r for c, r in BUILTIN["default"].rules.items() if c is not C.PURCHASE}
    assert work.allow_sites == ("*.mycompany.com", "localhost")
    assert work.deny_sites == ("file:", "private")
    assert work.ask_timeout == 300
    assert work.sites.verdict("https://wiki.mycompany.com/") == "allowed"
    assert work.sites.verdict("https://example.com/") == "outside"


def test_agents_get_their_profile_and_everyone_else_the_default(tmp_path: Path) -> None:
    config = load(write(tmp_path, EXAMPLE))
    assert config.profile_for("claude-code").name == "trusted"
    assert config.profile_for("nightly bot").name == "work"
    assert config.profile_for("stranger").name == "default"


def test_a_profile_without_inherits_starts_from_the_default(tmp_path: Path) -> None:
    config = load(write(tmp_path, '[profiles.lean.rules]\nsend = "block"\n'))
    lean = config.profiles["lean"]
    assert lean.rules[C.SEND] is B
    assert lean.rules[C.DELETE] is BUILTIN["default"].rules[C.DELETE]
    assert lean.allow_sites == BUILTIN["default"].allow_sites


def test_profiles_inherit_from_profiles_in_the_same_file(tmp_path: Path) -> None:
    config = load(write(tmp_path, EXAMPLE + """
[profiles.contractor]
inherits = "work"
[profiles.contractor.rules]
send = "block"
"""))
    contractor = config.profiles["contractor"]
    assert contractor.rules[C.PURCHASE] is B
    assert contractor.rules[C.SEND] is B
    assert contractor.allow_sites == ("*.mycompany.com", "localhost")


def test_the_file_may_redefine_a_built_in_profile_from_its_built_in_self(tmp_path: Path) -> None:
    config = load(write(tmp_path, '[profiles.default.rules]\neval = "ask"\n'))
    assert config.profiles["default"].rules[C.EVAL] is Q
    assert config.profiles["default"].rules[C.PURCHASE] is Q


def test_a_profile_built_in_code_checks_its_timeout_and_rules() -> None:
    with pytest.raises(UsageError, match="between 5 and 3600"):
        Profile("quick", ask_timeout=1)
    with pytest.raises(UsageError, match="no rule for"):
        Profile("partial", rules={C.EVAL: B})


def test_an_unknown_profile_name_in_code_is_refused_naming_the_known_ones() -> None:
    with pytest.raises(UsageError, match="read-only"):
        Config().profile("nope")


MALFORMED = [
    ("unknown-top-key", 'defualt_profile = "x"\n', "defualt_profile", "not a setting"),
    ("unknown-profile-key", "[profiles.work]\nallow = []\n", "profiles.work.allow",
     "not a setting"),
    ("sites-not-an-array", '[profiles.work]\nallow_sites = "*"\n', "profiles.work.allow_sites",
     "must be an array"),
    ("site-not-a-string", "[profiles.work]\ndeny_sites = [1]\n", "profiles.work.deny_sites[0]",
     "must be a string"),
    ("bad-site-pattern", '[profiles.work]\nallow_sites = ["*", "exa*mple.com"]\n',
     "profiles.work.allow_sites[1]", "exa*mple.com"),
    ("unknown-category", '[profiles.work.rules]\nshopping = "ask"\n',
     "profiles.work.rules.shopping", "not a category"),
    ("unknown-rule", '[profiles.work.rules]\npurchase = "blok"\n',
     "profiles.work.rules.purchase", "'blok', which is not a rule"),
    ("rule-not-a-string", "[profiles.work.rules]\npurchase = true\n",
     "profiles.work.rules.purchase", "not true/false"),
    ("timeout-too-short", "[profiles.work]\nask_timeout = 2\n", "profiles.work.ask_timeout",
     "between 5 and 3600"),
    ("timeout-not-a-number", '[profiles.work]\nask_timeout = "2m"\n',
     "profiles.work.ask_timeout", "a number of seconds"),
    ("timeout-a-boolean", "[profiles.work]\nask_timeout = true\n", "profiles.work.ask_timeout",
     "a number of seconds"),
    ("agent-names-unknown-profile", '[agents]\n"claude code" = "wrok"\n',
     'agents."claude code"', "'wrok'"),
    ("default-profile-unknown", 'default_profile = "paranoid"\n', "default_profile",
     "'paranoid'"),
    ("inherits-unknown", '[profiles.work]\ninherits = "defualt"\n', "profiles.work.inherits",
     "'defualt'"),
    ("inheritance-circle", '[profiles.a]\ninherits = "b"\n[profiles.b]\ninherits = "a"\n',
     "inherits", "circle"),
    ("agents-not-a-table", 'agents = "trusted"\n', "agents", "must be a table"),
    ("profile-not-a-table", "profiles.work = 3\n", "profiles.work", "must be a table"),
    ("bad-profile-name", '[profiles."my profile"]\n', 'profiles."my profile"', "profile name"),
    ("not-toml", "default_profile = \n", "not valid TOML", ""),
]


@pytest.mark.parametrize(("text", "where", "what"), [case[1:] for case in MALFORMED],
                         ids=[case[0] for case in MALFORMED])
def test_a_wrong_file_is_refused_naming_file_key_and_problem(tmp_path: Path, text: str,
                                                             where: str, what: str) -> None:
    path = write(tmp_path, text)
    with pytest.raises(UsageError) as caught:
        load(path)
    message = caught.value.message
    assert str(path) in message
    assert where in message
    assert what in message
    assert "Nothing was loaded" in message


@pytest.mark.parametrize("key", ["token", "api_key", "password", "client_secret", "apiKey",
                                 "github-token"])
def test_a_file_that_seems_to_hold_a_secret_is_refused_without_echoing_it(tmp_path: Path,
                                                                          key: str) -> None:
    path = write(tmp_path, f'[profiles.work]\n{key} = "s3cr3t-value"\n')
    with pytest.raises(UsageError) as caught:
        load(path)
    message = caught.value.message
    assert f"profiles.work.{key}" in message
    assert "secret" in message
    assert "s3cr3t-value" not in message


def test_the_credentials_category_is_not_mistaken_for_a_secret(tmp_path: Path) -> None:
    config = load(write(tmp_path, '[profiles.work.rules]\ncredentials = "block"\n'))
    assert config.profiles["work"].rules[C.CREDENTIALS] is B


def test_an_unreadable_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "policy.toml"
    path.write_bytes(b"\xff\xfe not utf-8")
    with pytest.raises(UsageError, match="could not be read"):
        load(path)


def test_the_default_template_goes_into_a_private_config_dir(monkeypatch: pytest.MonkeyPatch,
                                                             tmp_path: Path) -> None:
    folder = tmp_path / "tabsteward"
    monkeypatch.setattr(profile_template, "config_dir", lambda: folder)
    assert write_default() is True
    assert (folder / "policy.toml").exists()
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700


# -- model, key and browser --

def test_model_key_and_browser_are_read_per_profile_and_inherited(tmp_path: Path) -> None:
    config = load(write(tmp_path, """
[profiles.work]
model = "claude-sonnet-4"
key = "anthropic.work"
browser = "Work Chrome"
[profiles.contractor]
inherits = "work"
browser = ""
"""))
    work, contractor = config.profiles["work"], config.profiles["contractor"]
    assert (work.model, work.key, work.browser) == ("claude-sonnet-4", "anthropic.work",
                                                    "Work Chrome")
    assert (contractor.model, contractor.key, contractor.browser) == ("claude-sonnet-4",
                                                                      "anthropic.work", "")


def test_model_key_and_browser_are_empty_in_the_built_in_profiles() -> None:
    assert all((p.model, p.key, p.browser) == ("", "", "") for p in BUILTIN.values())


def test_the_template_spells_out_model_key_and_browser() -> None:
    text = profile_template.template()
    assert 'model = ""' in text
    assert 'key = ""' in text
    assert 'browser = ""' in text
    assert "Keys window" in text


def test_the_plain_key_setting_is_not_mistaken_for_a_secret(tmp_path: Path) -> None:
    config = load(write(tmp_path, '[profiles.work]\nkey = "openai"\n'))
    assert config.profiles["work"].key == "openai"


@pytest.mark.parametrize("key", ["api_key", "token", "secret_key", "key_token"])
def test_secret_looking_settings_beside_key_are_still_refused(tmp_path: Path, key: str) -> None:
    path = write(tmp_path, f'[profiles.work]\nkey = "openai"\n{key} = "s3cr3t-value"\n')
    with pytest.raises(UsageError, match="looks like a secret") as caught:
        load(path)
    assert "s3cr3t-value" not in caught.value.message


BAD_FIELDS = [
    ("key-with-space", 'key = "my key"', "profiles.work.key", "not a key name"),
    ("key-starting-with-dot", 'key = ".hidden"', "profiles.work.key", "not a key name"),
    ("key-too-long", f'key = "{"k" * 65}"', "profiles.work.key", "not a key name"),
    ("key-not-a-string", "key = 3", "profiles.work.key", "must be a string"),
    ("model-too-long", f'model = "{"m" * 201}"', "profiles.work.model", "longer than 200"),
    ("model-with-a-newline", 'model = "gpt\\nx"', "profiles.work.model", "line break"),
    ("browser-too-long", f'browser = "{"b" * 65}"', "profiles.work.browser", "longer than 64"),
    ("browser-with-a-tab", 'browser = "a\\tb"', "profiles.work.browser", "cannot be shown"),
]


@pytest.mark.parametrize(("line", "where", "what"), [case[1:] for case in BAD_FIELDS],
                         ids=[case[0] for case in BAD_FIELDS])
def test_a_wrong_model_key_or_browser_is_refused(tmp_path: Path, line: str, where: str,
                                                 what: str) -> None:
    with pytest.raises(UsageError) as caught:
        load(write(tmp_path, f"[profiles.work]\n{line}\n"))
    assert where in caught.value.message
    assert what in caught.value.message
    assert "Nothing was loaded" in caught.value.message


def test_a_key_value_that_is_an_api_key_itself_is_refused_without_echoing_it(
        tmp_path: Path) -> None:
    secret = "sk-abc123def456ghi789"
    with pytest.raises(UsageError, match="looks like an API key itself") as caught:
        load(write(tmp_path, f'[profiles.work]\nkey = "{secret}"\n'))
    assert secret not in caught.value.message


def test_the_longest_allowed_values_are_accepted(tmp_path: Path) -> None:
    text = (f'[profiles.work]\nmodel = "{"m" * 200}"\nkey = "{"k" * 64}"\n'
            f'browser = "{"b" * 64}"\n')
    work = load(write(tmp_path, text)).profiles["work"]
    assert (len(work.model), len(work.key), len(work.browser)) == (200, 64, 64)


def test_a_profile_built_in_code_checks_model_key_and_browser() -> None:
    with pytest.raises(UsageError, match="profile 'x': key is not a key name"):
        Profile("x", key="has space")
    with pytest.raises(UsageError, match="profile 'x': browser is longer than 64"):
        Profile("x", browser="b" * 65)


def test_load_text_reads_text_as_if_from_its_path_and_ends_errors_as_told(
        tmp_path: Path) -> None:
    path = tmp_path / "policy.toml"
    config = profile_reader.load_text('default_profile = "trusted"\n', path)
    assert config.default_profile == "trusted"
    assert config.source == path
    assert not path.exists()
    with pytest.raises(UsageError) as caught:
        profile_reader.load_text('default_profile = "nope"\n', nothing="Nothing was saved")
    assert caught.value.message.startswith("policy.toml: default_profile")
    assert caught.value.message.endswith("Nothing was saved")


def test_configs_with_the_same_settings_are_equal_wherever_they_came_from(
        tmp_path: Path) -> None:
    assert load(write(tmp_path, "")) == Config()


# -- the goal agent's budgets --

GOALS = ("goal_actions", "goal_requests", "goal_seconds", "goal_candidates")


def test_the_goal_agent_budgets_default_to_60_actions_120_requests_600_seconds_250_refs(
        ) -> None:
    assert profiles.GOAL_FIELDS == GOALS
    assert (profiles.GOAL_ACTIONS, profiles.GOAL_REQUESTS, profiles.GOAL_SECONDS,
            profiles.GOAL_CANDIDATES) == (60, 120, 600, 250)
    assert dict(profiles.GOAL_BOUNDS) == {"goal_actions": (1, 1000), "goal_requests": (1, 2000),
                                          "goal_seconds": (10, 86400),
                                          "goal_candidates": (10, 2000)}
    for profile in BUILTIN.values():
        assert (profile.goal_actions, profile.goal_requests, profile.goal_seconds,
                profile.goal_candidates) == (60, 120, 600, 250)
    assert set(profiles.GOAL_HELP) == set(GOALS)


def test_goal_budgets_are_read_per_profile_and_inherited(tmp_path: Path) -> None:
    config = load(write(tmp_path, """
[profiles.work]
goal_actions = 200
goal_requests = 400
goal_seconds = 1800
[profiles.contractor]
inherits = "work"
goal_seconds = 10
goal_candidates = 2000
[profiles.spare]
inherits = "read-only"
"""))
    work, contractor = config.profiles["work"], config.profiles["contractor"]
    assert (work.goal_actions, work.goal_requests, work.goal_seconds,
            work.goal_candidates) == (200, 400, 1800, 250)
    assert (contractor.goal_actions, contractor.goal_requests, contractor.goal_seconds,
            contractor.goal_candidates) == (200, 400, 10, 2000)
    assert config.profiles["spare"].goal_actions == 60


def test_the_lowest_and_highest_goal_budgets_are_accepted(tmp_path: Path) -> None:
    low = load(write(tmp_path, "[profiles.low]\ngoal_actions = 1\ngoal_requests = 1\n"
                               "goal_seconds = 10\ngoal_candidates = 10\n")).profiles["low"]
    assert (low.goal_actions, low.goal_requests, low.goal_seconds,
            low.goal_candidates) == (1, 1, 10, 10)
    high = load(write(tmp_path, "[profiles.high]\ngoal_actions = 1000\ngoal_requests = 2000\n"
                                "goal_seconds = 86400\ngoal_candidates = 2000\n")
                ).profiles["high"]
    assert (high.goal_actions, high.goal_requests, high.goal_seconds,
            high.goal_candidates) == (1000, 2000, 86400, 2000)


BAD_GOALS = [
    ("actions-zero", "goal_actions = 0", "goal_actions", "is 0", "from 1 to 1000"),
    ("actions-too-many", "goal_actions = 1001", "goal_actions", "is 1001", "from 1 to 1000"),
    ("actions-negative", "goal_actions = -5", "goal_actions", "is -5", "from 1 to 1000"),
    ("requests-too-many", "goal_requests = 2001", "goal_requests", "is 2001",
     "from 1 to 2000"),
    ("seconds-too-short", "goal_seconds = 9", "goal_seconds", "is 9", "from 10 to 86400"),
    ("seconds-over-a-day", "goal_seconds = 86401", "goal_seconds", "is 86401",
     "from 10 to 86400"),
    ("candidates-too-few", "goal_candidates = 5", "goal_candidates", "is 5",
     "from 10 to 2000"),
    ("candidates-too-many", "goal_candidates = 2001", "goal_candidates", "is 2001",
     "from 10 to 2000"),
    ("actions-a-float", "goal_actions = 60.0", "goal_actions", "not a number",
     "from 1 to 1000"),
    ("seconds-a-float", "goal_seconds = 90.5", "goal_seconds", "not a number",
     "from 10 to 86400"),
    ("seconds-a-string", 'goal_seconds = "10m"', "goal_seconds", "not a string",
     "from 10 to 86400"),
    ("requests-an-array", "goal_requests = [120]", "goal_requests", "not an array",
     "from 1 to 2000"),
    ("actions-a-boolean", "goal_actions = true", "goal_actions", "not true/false",
     "from 1 to 1000"),
    ("candidates-a-boolean", "goal_candidates = false", "goal_candidates", "not true/false",
     "from 10 to 2000"),
]


@pytest.mark.parametrize(("line", "key", "what", "allowed"), [case[1:] for case in BAD_GOALS],
                         ids=[case[0] for case in BAD_GOALS])
def test_a_goal_budget_out_of_range_or_not_a_whole_number_is_refused(
        tmp_path: Path, line: str, key: str, what: str, allowed: str) -> None:
    path = write(tmp_path, f"[profiles.work]\n{line}\n")
    with pytest.raises(UsageError) as caught:
        load(path)
    message = caught.value.message
    assert str(path) in message
    assert f"profiles.work.{key}" in message
    assert what in message
    assert allowed in message
    assert "Nothing was loaded" in message


def test_a_profile_built_in_code_checks_its_goal_budgets() -> None:
    with pytest.raises(UsageError, match="goal_actions must be a whole number from 1 to 1000"):
        Profile("x", goal_actions=0)
    with pytest.raises(UsageError, match=r"goal_seconds must be .* not 600\.0"):
        Profile("x", goal_seconds=600.0)  # type: ignore[arg-type]
    with pytest.raises(UsageError, match=r"goal_candidates must be .* not True"):
        Profile("x", goal_candidates=True)
    assert Profile("x", goal_requests=2000).goal_requests == 2000


def test_the_template_mentions_the_goal_budgets_as_comments_that_load_as_the_defaults(
        tmp_path: Path) -> None:
    text = profile_template.template()
    for key, value in [("goal_actions", 60), ("goal_requests", 120), ("goal_seconds", 600),
                       ("goal_candidates", 250)]:
        assert f"\n# {key} = {value}\n" in text
        assert f"\n{key} =" not in text
    assert "(10 to 86400)" in text
    uncommented = text.replace("# goal_", "goal_")
    assert load(write(tmp_path, uncommented)).profiles == Config().profiles


def test_each_agent_may_have_50_tabs_unless_its_profile_says_otherwise() -> None:
    assert BUILTIN["default"].max_tabs == 50
    assert "max_tabs = 50" in profile_template.template()
    assert profile_reader.load_text(profile_template.template()).profile("default").max_tabs == 50
    config = profile_reader.load_text('[profiles.few]\nmax_tabs = 3\n[profiles.more]\n'
                                'inherits = "few"\n')
    assert config.profile("few").max_tabs == 3
    assert config.profile("more").max_tabs == 3


@pytest.mark.parametrize("value", ["0", "1001", "true", '"5"', "2.5"])
def test_a_tab_cap_out_of_bounds_loads_nothing(value: str) -> None:
    with pytest.raises(UsageError, match="max_tabs"):
        profile_reader.load_text(f"[profiles.few]\nmax_tabs = {value}\n")
