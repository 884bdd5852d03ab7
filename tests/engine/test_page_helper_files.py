"""The page helper's files: the hub evaluates them as one script, the extension injects the
same files in the same order, and either way the helper installs once per document."""

from __future__ import annotations

import re
from importlib.resources import files
from pathlib import Path

import pytest
from fixture_server import Site
from pagetools import goto
from tabsteward.bridge.engine.frames import PAGE_FILES, PAGE_JS
from tabsteward.bridge.engine.helper_source import compact
from tabsteward.bridge.engine.tab import Tab

CHECKOUT = Path(__file__).resolve().parents[2]
SHIPPED = files("tabsteward.extension")
ENGINE = files("tabsteward.bridge.engine")


def reader_files(source: str) -> list[str]:
    """The FILES list of extension/reader.js."""
    found = re.search(r"const FILES = \[([^\]]*)\];", source)
    assert found, "reader.js names no FILES"
    return re.findall(r'"([^"]+)"', found.group(1))


def test_the_extension_injects_the_page_helpers_files_in_the_order_the_hub_evaluates_them(
        ) -> None:
    shipped = SHIPPED.joinpath("reader.js").read_text(encoding="utf-8")
    assert reader_files(shipped) == [*PAGE_FILES, "doc.js"]
    assert PAGE_FILES[-1] == "page.js"  # the last publishes the helper as __ts


def test_the_extension_ships_each_page_helper_file_as_the_engines_own() -> None:
    for name in PAGE_FILES:
        assert SHIPPED.joinpath(name).read_bytes() == ENGINE.joinpath(name).read_bytes(), name
        assert compact(ENGINE.joinpath(name).read_text(encoding="utf-8")) in PAGE_JS


def test_in_the_checkout_each_page_helper_file_of_the_extension_is_a_link_to_the_engines(
        ) -> None:
    for name in PAGE_FILES:
        link = CHECKOUT / "extension" / name
        assert link.is_symlink(), f"extension/{name} is not a link into bridge/engine"
        assert link.resolve() == (CHECKOUT / "bridge" / "engine" / name).resolve(), name


def test_every_page_helper_file_but_the_last_returns_early_once_the_helper_is_installed(
        ) -> None:
    for name in PAGE_FILES[:-1]:
        text = ENGINE.joinpath(name).read_text(encoding="utf-8")
        assert "(() => {\n  if (globalThis.__ts) return;\n" in text, name
        assert text.rstrip().endswith("})();"), name


@pytest.mark.browser
async def test_the_page_helper_installs_once_keeping_its_ids_and_leaves_only_its_entry(
        tab: Tab, site: Site) -> None:
    await goto(tab, site.url("form.html"))
    main = tab.frames[tab.target_id]
    before = await tab.evaluate(main, "__ts.query('input, button', 50)")
    assert before
    assert await tab.evaluate(main, PAGE_JS) == "present"
    assert await tab.evaluate(main, "__ts.query('input, button', 50)") == before
    names = await tab.evaluate(
        main, "Object.getOwnPropertyNames(globalThis).filter((n) => n.startsWith('__ts'))")
    # the extension names documents and reads them (doc.js)
    assert sorted(names) in (["__ts"], ["__ts", "__tsDoc", "__tsReads"])


def test_the_helper_is_sent_without_its_comment_lines_and_indentation() -> None:
    raw = sum(len(ENGINE.joinpath(name).read_text(encoding="utf-8")) for name in PAGE_FILES)
    assert len(PAGE_JS) < raw * 0.8  # no file fell back to its whole text
    assert "\n//" not in PAGE_JS
    assert "\n  " not in PAGE_JS


def test_compacting_drops_comment_lines_and_indentation_and_keeps_the_code() -> None:
    source = "// top\nfunction f(a) {\n  // inner\n  return a + 1; // tail kept\n\n}\n"
    assert compact(source) == "function f(a) {\nreturn a + 1; // tail kept\n}"


@pytest.mark.parametrize("source", [
    "const t = `a\n  // inside the literal\n  b`;\n",
    "const s = 'a\\\n  // continued string';\n",
])
def test_compacting_leaves_a_source_whose_literal_spans_lines_as_it_is(source: str) -> None:
    assert compact(source) == source
