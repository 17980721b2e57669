#!/bin/bash
# Runs one PE with a slow reader on its stderr: once output is waiting in the pipe, the reader lets 0.3 s pass before
# it reads and forwards it to the launcher. The launcher closes its end of the PE's stderr once the PE has died, so a
# line still unread when the PE asked for the abort is lost (as with a `tee` in a wrapper script on a busy machine).
#   slow_reader.sh <program> [args...]     (in place of the program, after mpiexec's options)
exec "$@" 2> >(until read -r -t 0; do sleep 0.01; done; sleep 0.3; exec cat >&2)
