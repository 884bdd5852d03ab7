#!/usr/bin/env bash
# A frozen, one-folder build of Tabsteward for people without Python, then its smoke test.
#
#   bash packaging/build.sh            build dist/tabsteward/ and smoke-test it
#   bash packaging/build.sh --no-test  build only
#
# Makes build/venv with this checkout (`.[desktop]`) and PyInstaller, freezes it with
# packaging/tabsteward.spec into dist/tabsteward/ (the program is dist/tabsteward/tabsteward),
# prints its size, then runs packaging/smoke_frozen.py: --version, serve and a snapshot,
# install and doctor, the tray app offscreen, setup, and the frozen native host started by a
# real Chromium (Debian's chromium, as bootstrap.sh installs it). The test suite does not
# run this (it takes minutes); CI runs the suite only.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
python=${PYTHON:-python3}
started=$(date +%s)
venv=build/venv
if [ ! -x "$venv/bin/python" ]; then
  echo "== creating $venv"
  "$python" -m venv "$venv"
fi
echo "== installing Tabsteward (with its tray app) and PyInstaller into $venv"
"$venv/bin/python" -m pip install -q --disable-pip-version-check --upgrade pip setuptools wheel
"$venv/bin/python" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps .
"$venv/bin/python" -m pip install -q --disable-pip-version-check '.[desktop]' \
  'pyinstaller>=6.10,<7'
echo "== freezing with packaging/tabsteward.spec"
"$venv/bin/python" -m PyInstaller --noconfirm --clean --log-level WARN \
  --distpath dist --workpath build/pyinstaller packaging/tabsteward.spec
echo "== built dist/tabsteward in $(( $(date +%s) - started )) s:" \
  "$(du -sh dist/tabsteward | cut -f1) in $(find dist/tabsteward -type f | wc -l) files"
if [ "${1:-}" != --no-test ]; then
  echo "== smoke test of the frozen build"
  "$venv/bin/python" packaging/smoke_frozen.py dist/tabsteward/tabsteward
fi
