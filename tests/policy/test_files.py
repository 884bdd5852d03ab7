"""Files in policy: keys and credentials known by their real path, saves rated by where they
land and whether they replace a file, and paths shown as people read them."""

from __future__ import annotations

import pytest
from tabsteward.bridge.policy.categories import Category, Rule
from tabsteward.bridge.policy.classify import classify, decide
from tabsteward.bridge.policy.files import sensitive, shown_path, within
from tabsteward.bridge.policy.intent import Element, Intent
from tabsteward.bridge.policy.profiles import BUILTIN

C = Category
DEFAULT = BUILTIN["default"]
FOLDER = "/home/ada/Downloads/Tabsteward/claude"
FILE_INPUT = Element(role="button", name="CV", tag="input", type="file")


class NoGrants:
    def allows(self, profile: str, site: str, category: Category) -> bool:
        return False


@pytest.mark.parametrize("path", [
    "/home/ada/.ssh/id_ed25519", "/home/ada/.ssh/config", "/home/ada/keys/id_rsa",
    "/home/ada/src/app/.env", "/home/ada/src/app/.env.production", "/home/ada/.netrc",
    "/home/ada/.aws/credentials", "/home/ada/.config/gcloud/application_default.json",
    "/home/ada/.gnupg/private-keys-v1.d/ABC.key", "/home/ada/.local/share/keyrings/login.keyring",
    "/home/ada/.config/google-chrome/Default/Login Data", "/home/ada/.mozilla/firefox/x/key4.db",
    "/home/ada/.kube/config", "/home/ada/.docker/config.json", "/home/ada/.git-credentials",
    "/home/ada/.local/state/tabsteward/agents.json", "/home/ada/vault.kdbx",
    "/Users/ada/Library/Keychains/login.keychain-db", "/home/ada/certs/server.pem"])
def test_keys_credentials_keyrings_and_browser_profiles_are_sensitive(path: str) -> None:
    assert sensitive(path)


@pytest.mark.parametrize("path", [
    "/home/ada/Documents/cv.pdf", "/home/ada/photos/ssh.png", "/home/ada/src/env.py",
    "/home/ada/notes/credentials-howto.md", "/home/ada/keys.txt.bak2"])
def test_ordinary_files_are_not(path: str) -> None:
    assert not sensitive(path)


def test_an_upload_is_rated_and_shown_by_the_real_path_it_was_given() -> None:
    intent = Intent("upload", "https://jobs.example/apply", FILE_INPUT,
                    files=("/home/ada/.ssh/id_ed25519",))
    verdict = decide(intent, DEFAULT, NoGrants())
    assert {f.category for f in verdict.findings} == {C.UPLOAD, C.CREDENTIALS}
    assert verdict.rule is Rule.ASK
    assert '"/home/ada/.ssh/id_ed25519"' in verdict.summary or \
        '"~/.ssh/id_ed25519"' in verdict.summary
    assert "cv.pdf" not in verdict.summary


def save(path: str, replaces: bool = False) -> Intent:
    return Intent("save", "https://example.com/", files=(path,),
                  extra={"folder": FOLDER, "replaces": "yes" if replaces else "",
                         "what": "a screenshot"})


def test_a_save_in_the_agents_folder_is_no_risk() -> None:
    assert classify(save(f"{FOLDER}/shot.png"), DEFAULT.sites) == []
    assert decide(save(f"{FOLDER}/shot.png"), DEFAULT, NoGrants()).rule is Rule.ALLOW


@pytest.mark.parametrize("path", ["/home/ada/Documents/shot.png",
                                  "/home/ada/Downloads/Tabsteward/claude-2/shot.png",
                                  "/home/ada/Downloads/Tabsteward/claudex.png"])
def test_a_save_outside_the_agents_folder_is_asked_about(path: str) -> None:
    [finding] = classify(save(path), DEFAULT.sites)
    assert finding.category is C.WRITE_FILES
    assert "outside the agent's folder" in finding.reason
    assert decide(save(path), DEFAULT, NoGrants()).rule is Rule.ASK
    assert decide(save(path), BUILTIN["trusted"], NoGrants()).rule is Rule.ALLOW
    assert decide(save(path), BUILTIN["read-only"], NoGrants()).rule is Rule.BLOCK


def test_replacing_a_file_is_asked_about_even_in_the_agents_folder() -> None:
    intent = save(f"{FOLDER}/shot.png", replaces=True)
    [finding] = classify(intent, DEFAULT.sites)
    assert finding.category is C.WRITE_FILES
    assert "replace the existing file" in finding.reason
    assert "replacing the file there" in decide(intent, DEFAULT, NoGrants()).summary


def test_a_download_outside_the_folder_is_a_download_and_a_write() -> None:
    intent = Intent("download", "https://example.com/", url="https://example.com/a.csv",
                    files=("/home/ada/Documents/a.csv",), extra={"folder": FOLDER})
    assert {f.category for f in classify(intent, DEFAULT.sites)} == {C.DOWNLOAD, C.WRITE_FILES}


def test_within_means_the_folder_or_below_it_not_a_name_that_starts_alike() -> None:
    assert within(FOLDER, FOLDER)
    assert within(f"{FOLDER}/a/b", FOLDER)
    assert not within(f"{FOLDER}-2/a", FOLDER)
    assert not within("/anything", "")


def test_a_path_is_shown_with_home_as_tilde_its_end_kept_and_quoted(monkeypatch) -> None:
    monkeypatch.setenv("HOME", "/home/ada")
    assert shown_path("/home/ada/.ssh/id_ed25519") == '"~/.ssh/id_ed25519"'
    long = "/srv/" + "x" * 200 + "/end.png"
    shown = shown_path(long)
    assert shown.startswith('"…')
    assert shown.endswith('/end.png"')
    assert shown_path('/tmp/a"\nb') == '"/tmp/a\\" b"'
