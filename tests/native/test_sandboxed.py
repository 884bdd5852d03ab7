"""Snap and Flatpak browsers: doctor names them with the fix, install skips them, both alike.

There is no Snap or Flatpak on the test machine: each test lays out a fake system root and
home as those installs leave them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from tabsteward.bridge import cli
from tabsteward.bridge.setup import doctor, sandboxed, setup_args

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty fake system root, and a fake home with its XDG folders (no browser yet)."""
    system = tmp_path / "root"
    system.mkdir()
    monkeypatch.setattr(sandboxed, "SYSTEM_ROOT", system)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    for var in ("XDG_CONFIG_HOME", "TABSTEWARD_EXTRA_EXTENSION_IDS", "TABSTEWARD_SOCKET"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local/share"))
    monkeypatch.setenv("XDG_STATE_HOME", str(home / ".local/state"))
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "run"))
    return system


def snap_chromium(root: Path) -> Path:
    """What `snap install chromium` leaves: /snap/chromium/<rev> and /snap/bin/chromium."""
    (root / "snap/chromium/2890").mkdir(parents=True)
    (root / "snap/bin").mkdir(parents=True, exist_ok=True)
    (root / "snap/bin/chromium").write_text("")
    return root / "snap/chromium"


def flatpak_chrome(home: Path) -> Path:
    """A per-user `flatpak install com.google.Chrome`, run once."""
    app = home / ".local/share/flatpak/app/com.google.Chrome"
    (app / "x86_64/stable").mkdir(parents=True)
    (home / ".var/app/com.google.Chrome/config/google-chrome").mkdir(parents=True)
    return app


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_snap_and_flatpak_browsers_are_found_from_what_their_installs_leave(
        root: Path) -> None:
    home = Path.home()
    assert sandboxed.find("linux") == []
    snap = snap_chromium(root)
    flatpak = flatpak_chrome(home)
    (root / "var/lib/flatpak/app/com.brave.Browser").mkdir(parents=True)
    found = {(s.browser, s.kind, s.where) for s in sandboxed.find("linux")}
    assert found == {("chromium", "Snap", snap), ("chrome", "Flatpak", flatpak),
                     ("brave", "Flatpak", root / "var/lib/flatpak/app/com.brave.Browser")}
    assert sandboxed.find("darwin") == []
    assert sandboxed.find("win32") == []


def test_a_flatpak_known_only_by_its_data_folder_is_found(root: Path) -> None:
    data = Path.home() / ".var/app/org.chromium.Chromium"
    data.mkdir(parents=True)
    assert [(s.browser, s.kind, s.where) for s in sandboxed.find("linux")] == [
        ("chromium", "Flatpak", data)]


def test_the_words_say_why_and_point_to_packages_that_work(root: Path) -> None:
    snap_chromium(root)
    flatpak_chrome(Path.home())
    snap, flat = sorted(sandboxed.find("linux"), key=lambda s: s.kind, reverse=True)
    assert snap.name.startswith("Chromium from Snap (")
    assert "cannot start Tabsteward's native host" in snap.why
    assert "distribution's own packages" in snap.fix
    assert ".deb/.rpm" in snap.fix
    assert "Ubuntu" in snap.fix  # its apt name installs the Snap again
    assert flat.name.startswith("Chrome from Flatpak (")
    assert "Google Chrome from the vendor's .deb/.rpm" in flat.fix


def test_doctor_fails_on_a_snap_chromium_alone_naming_why_and_the_fix(
        root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    where = snap_chromium(root)
    code, out, err = run_cli(capsys, "doctor")
    assert code == 1
    assert err == ""
    line = next(ln for ln in out.splitlines() if "Snap" in ln)
    assert line.startswith(f"FAIL Chromium from Snap ({where}): ")
    assert "cannot start Tabsteward's native host" in line
    assert "fix: use Chromium from your distribution's own packages" in line
    # the Snap's failure is the whole story: no second failure about config folders
    assert "config folder" not in out


def test_doctor_warns_of_a_flatpak_beside_a_browser_that_works(
        root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = Path.home()
    (home / ".config/chromium").mkdir(parents=True)
    flatpak_chrome(home)
    checks = doctor.run(setup_args.Options(), request=lambda m, t: {"ok": True})
    confined = [c for c in checks if "Flatpak" in c.what]
    assert [c.status for c in confined] == ["warn"]
    assert any(c.what.startswith("chromium: host manifest") for c in checks)


def test_install_with_only_sandboxed_browsers_installs_nothing_and_says_why(
        root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    snap_chromium(root)
    flatpak_chrome(Path.home())
    before = sorted(p for p in Path.home().rglob("*"))
    code, out, err = run_cli(capsys, "install")
    assert code == 2
    assert out == ""
    assert err.startswith("error: nothing was installed")
    found = sandboxed.find("linux")
    assert len(found) == 2
    for confined in found:
        assert confined.line() in err  # the same words doctor prints
    assert sorted(p for p in Path.home().rglob("*")) == before


def test_install_registers_the_packaged_browser_and_skips_the_snap_with_doctors_words(
        root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    home = Path.home()
    (home / ".config/chromium").mkdir(parents=True)
    snap_chromium(root)
    code, out, _ = run_cli(capsys, "install")
    assert code == 0
    assert (home / ".config/chromium/NativeMessagingHosts/com.tabsteward.host.json").is_file()
    assert not (home / "snap").exists()  # nothing written where the Snap would look
    confined = sandboxed.find("linux")[0]
    skipped = [ln for ln in out.splitlines() if ln.startswith("skipped ")]
    assert skipped == [f"skipped {confined.line()}"]
    _, doctor_out, _ = run_cli(capsys, "doctor")
    assert f"warn {confined.line()}" in doctor_out.splitlines()
    code, out, _ = run_cli(capsys, "install", "--json")
    report = json.loads(out)
    assert report["skipped"] == [confined.as_dict()]
