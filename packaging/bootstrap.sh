#!/usr/bin/env bash
# Set up Tabsteward on this machine, then run the demo or the test suite.
#
#   bash packaging/bootstrap.sh demo    install what is missing, then `tabsteward demo`
#   bash packaging/bootstrap.sh test    install what is missing, then the whole suite
#
# Installs Debian's chromium (for the tests also xvfb, trayer, gnome-keyring and dbus; on a
# display or for the tests, the X libraries the tray app's Qt needs) as root with apt-get when
# missing, makes .venv with the project, its tray app and its dev tools, and never touches
# anything outside the checkout but the apt packages. On a display, the demo's hub is the
# tray app.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
job="${1:-demo}"; shift || true

apt_packages=()
[ -x /usr/lib/chromium/chromium ] || command -v chromium >/dev/null || apt_packages+=(chromium)
# the suite runs one headed browser on a virtual display, and keeps agents' tokens in a
# real Secret Service on a private D-Bus session
if [ "$job" = test ]; then
  command -v Xvfb >/dev/null || apt_packages+=(xvfb)
  command -v gnome-keyring-daemon >/dev/null || apt_packages+=(gnome-keyring)
  command -v dbus-run-session >/dev/null || apt_packages+=(dbus-daemon)
  command -v pgrep >/dev/null || apt_packages+=(procps)
  command -v trayer >/dev/null || apt_packages+=(trayer)  # a system tray on that display
  # `setup`'s desktop entries: checked by desktop-file-validate, read back and started by GIO
  command -v desktop-file-validate >/dev/null || apt_packages+=(desktop-file-utils)
  command -v gio >/dev/null || apt_packages+=(libglib2.0-bin)
  /usr/bin/python3 -c 'import gi' 2>/dev/null || apt_packages+=(python3-gi gir1.2-glib-2.0)
fi
# the tray app's Qt (PySide6's xcb platform) needs these X libraries on a display
if [ "$job" = test ] || [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  if command -v dpkg >/dev/null; then
    for lib in libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 libxcb-image0 libxcb-randr0 \
               libxcb-render-util0 libxcb-shape0 libxcb-xkb1 libxkbcommon-x11-0 libegl1 \
               libgl1 libfontconfig1 libdbus-1-3; do
      dpkg -s "$lib" >/dev/null 2>&1 || apt_packages+=("$lib")
    done
  fi
fi
if [ ${#apt_packages[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "== installing ${apt_packages[*]} with apt-get"
    export DEBIAN_FRONTEND=noninteractive
    apt-get -o DPkg::Lock::Timeout=600 update -qq
    apt-get -o DPkg::Lock::Timeout=600 install -y -qq "${apt_packages[@]}" >/dev/null
  else
    echo "missing: ${apt_packages[*]}; install them (sudo apt-get install ${apt_packages[*]})" \
         "or set TABSTEWARD_CHROMIUM to a Chromium binary" >&2
    [ -n "${TABSTEWARD_CHROMIUM:-}" ] || exit 1
  fi
fi

# the distribution's own Python (Debian's, with python3-venv) when it is new enough: it starts
# faster than a self-built one such as pyenv's (about 2 ms less CPU per `tabsteward` call,
# measured); PYTHON=/path/to/python picks another, else `python3` on PATH
if [ -n "${PYTHON:-}" ]; then
  python=$PYTHON
elif /usr/bin/python3 -c 'import ensurepip, sys, venv; sys.exit(sys.version_info < (3, 11))' \
    2>/dev/null; then
  python=/usr/bin/python3
else
  python=python3
fi
if [ ! -x .venv/bin/python ]; then
  echo "== creating .venv"
  "$python" -m venv .venv
fi
stamp=.venv/.tabsteward-deps
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  echo "== installing Tabsteward's dependencies and dev tools into .venv"
  .venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip setuptools wheel
  .venv/bin/python -m pip install -q --disable-pip-version-check -e '.[dev]'
  touch "$stamp"
fi
# A regular (not editable) install of this checkout, every time: an editable install's
# import hook costs each `tabsteward` call more than all of the CLI's own work.
.venv/bin/python -m pip install -q --disable-pip-version-check --no-deps --no-build-isolation \
  --force-reinstall . >/dev/null

case "$job" in
  demo) exec .venv/bin/tabsteward demo "$@" ;;
  test) exec bash packaging/with-keyring.sh .venv/bin/python -m pytest "$@" ;;
  *) echo "usage: bash packaging/bootstrap.sh demo|test [args]" >&2; exit 2 ;;
esac
