#!/bin/sh
# exit_status.sh <status> <command>...: runs the command, prints "exit status <its status>", and succeeds only when
# that status is <status>.
want=$1
shift
"$@"
rc=$?
echo "exit status $rc"
test "$rc" -eq "$want"
