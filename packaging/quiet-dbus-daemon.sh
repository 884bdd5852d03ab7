#!/bin/sh
# dbus-daemon for packaging/with-keyring.sh, without its notices (fd limits, activations)
# on the test run's stderr.
exec dbus-daemon "$@" 2>/dev/null
