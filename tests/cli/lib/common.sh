# common.sh — sourced by the CLI tests (tests/cli/*.sh, run as
# `bash SCRIPT PIPS_BINARY SOURCE_DIR`); not a test itself. Sets PIPS and
# SRC from the arguments and tmp to a fresh folder removed at exit (after
# cleanup_hook, which a script may redefine to stop what it started), and
# gives every script the same checks:
#   check NAME STATUS            one line "ok: NAME" or "FAIL: NAME"
#   expect_exit CODE NAME WANT CMD...
#                                CMD (stdin empty) exits CODE, prints nothing
#                                on stdout, and its stderr holds WANT ($tmp/out
#                                and $tmp/err keep them)
#   finish                       the summary line and the script's status
PIPS=$1
SRC=${2:-}
fail=0
tmp=$(mktemp -d /tmp/pips-cli-XXXXXX)
cleanup_hook() { :; }
trap 'cleanup_hook; rm -rf "$tmp"' EXIT

check() {
    if [ "$2" != 0 ]; then echo "FAIL: $1"; fail=1; else echo "ok: $1"; fi
}

expect_exit() {
    local code=$1 name=$2 want=$3
    shift 3
    "$@" >"$tmp/out" 2>"$tmp/err" </dev/null
    local rc=$?
    [ "$rc" = "$code" ] && [ ! -s "$tmp/out" ] && grep -q -- "$want" "$tmp/err"
    st=$?; check "$name (exit $rc: $(head -n 1 "$tmp/err"))" $st
}

finish() {
    if [ "$fail" = 0 ]; then echo "all checks passed"; else echo "some checks failed"; fi
    exit "$fail"
}
