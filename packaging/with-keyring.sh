#!/usr/bin/env bash
# Run a command on a private D-Bus session with a throwaway, unlocked Secret Service
# (gnome-keyring), the way the test suite needs the OS keyring on a machine without a
# desktop. Nothing is kept: the keyring lives in a temporary folder removed at exit.
#
#   bash packaging/with-keyring.sh COMMAND [ARGS...]
set -euo pipefail
if [ -z "${TABSTEWARD_KEYRING_SESSION:-}" ]; then
  export TABSTEWARD_KEYRING_SESSION=1
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  exec dbus-run-session --dbus-daemon="$here/quiet-dbus-daemon.sh" -- \
    bash "${BASH_SOURCE[0]}" "$@"
fi
dir=$(mktemp -d /tmp/tabsteward-keyring.XXXXXX)
cleanup() {
  [ -z "${keyring_pid:-}" ] || kill "$keyring_pid" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT
mkdir -m 700 "$dir/data" "$dir/run"
# the daemon reads the new keyring's password on stdin, unlocks it, and forks
echo -n throwaway | XDG_DATA_HOME="$dir/data" XDG_RUNTIME_DIR="$dir/run" \
  gnome-keyring-daemon --unlock --components=secrets >"$dir/env" 2>"$dir/log" || {
    echo "gnome-keyring-daemon did not start: $(cat "$dir/log")" >&2; exit 1; }
keyring_pid=$(pgrep -n -u "$(id -u)" gnome-keyring-d || true)
# keyring's backend discovery must pick the Secret Service, never a plaintext file
export PYTHON_KEYRING_BACKEND=keyring.backends.SecretService.Keyring
"$@"
