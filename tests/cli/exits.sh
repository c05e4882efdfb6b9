#!/usr/bin/env bash
# exits.sh — one exit-status scheme for every command (issue 29): 0 done,
# 1 the work failed (a file, a record, memory), 2 usage or bad input, 3 a
# budget ran out, 130 interrupted. Every command listed by `pips --help` is
# run with an unknown flag, a bad value and (where it reads one) a missing
# file; the status and the message's first words are checked, and --help
# and the man page must document every status.
set -u
. "$(dirname "$0")/lib/common.sh"
none=$tmp/none.json

# bad_value CMD: a command line of CMD whose value is bad, with the words
# the message must hold ("-" where the command takes no value at all).
bad_value() {
    case $1 in
    list) echo "list tictacdoh|expected --json or FILE.lua" ;;
    rules) echo "rules nosuch|unknown game 'nosuch'" ;;
    play) echo "play tictacdoh --opt players=9|option 'players': '9' is not 2..4" ;;
    replay) echo "replay a b|unexpected argument" ;;
    perft) echo "perft tictacdoh 99|DEPTH must be an integer 0..64" ;;
    serve) echo "serve --port 99999|--port '99999': expected a whole number from 0 to 65535" ;;
    solve) echo "solve tictacdoh --threads 0|--threads '0': expected a whole number from 1 to 64" ;;
    bench) echo "bench nosuch|unknown game 'nosuch'" ;;
    playtest) echo "playtest tictacdoh --seats random --games 0|--games '0': expected a whole number from 1 to" ;;
    analyze) echo "analyze tictacdoh --state - --top 0|--top '0': expected a whole number from 1 to" ;;
    engine) echo "engine --seed -1|--seed '-1': expected a whole number from 0 to" ;;
    version) echo "version now|unexpected argument 'now'" ;;
    help) echo "help nosuch|unknown command 'nosuch'" ;;
    state) echo "state tictacdoh --state zz|--state:" ;;
    ladder) echo "ladder tictacdoh --agents random,greedy --games 0|--games '0': expected a whole number from 1 to" ;;
    moves) echo "moves nimitz --state zz|--state:" ;;
    agents) echo "agents nosuch|unknown game 'nosuch'" ;;
    skill) echo "skill tictacdoh --agent mcts --budgets 4,2|the budgets must increase" ;;
    esac
}

# missing_file CMD: a command line reading a file that is not there, or
# nothing when CMD reads no file.
missing_file() {
    case $1 in
    play) echo "play --resume $none" ;;
    replay) echo "replay $none" ;;
    solve) echo "solve tictacdoh --record $none --ply 1" ;;
    analyze) echo "analyze tictacdoh --record $none" ;;
    esac
}

commands=$("$PIPS" --help | sed -n '/^commands:/,/^$/p' | awk 'NF > 1 { print $1 }')
[ "$(echo "$commands" | wc -w)" -ge 15 ]; st=$?; check "pips --help lists the commands ($(echo $commands))" $st
for cmd in $commands; do
    expect_exit 2 "$cmd: an unknown flag" "^pips $cmd: unknown flag '--bogus'" "$PIPS" $cmd --bogus
    case=$(bad_value "$cmd")
    if [ -z "$case" ]; then
        check "$cmd: has a bad-value case in exits.sh" 1
        continue
    fi
    # shellcheck disable=SC2086
    expect_exit 2 "$cmd: a bad value" "^pips $cmd: .*${case#*|}" "$PIPS" ${case%%|*}
    file=$(missing_file "$cmd")
    if [ -n "$file" ]; then
        # shellcheck disable=SC2086
        expect_exit 1 "$cmd: a missing file" "^pips $cmd: .*cannot open record '$none': No such file" \
            "$PIPS" $file
    fi
done
# an output that cannot be written is refused before the work starts (2), fast
for out in "play tictacdoh --seat random --seat random --record $tmp/no/dir/g.json" \
    "ladder tictacdoh --agents random,greedy --games 100000 --out $tmp/no/dir" \
    "playtest tictacdoh --seats random --games 100000 --out $tmp/no/dir"; do
    start=$(date +%s)
    # shellcheck disable=SC2086
    expect_exit 2 "${out%% *}: an unwritable output" "^pips ${out%% *}: " "$PIPS" $out
    [ $(($(date +%s) - start)) -lt 10 ]; check "${out%% *}: refused before the first game" $?
done
expect_exit 2 "an unknown command" "^pips: unknown command 'nosuch'" "$PIPS" nosuch
expect_exit 2 "a switch given a value" "^pips perft: --divide takes no value" \
    "$PIPS" perft tictacdoh 1 --divide=1
# a record that is no record is the work failing (1), as a missing file is
echo '{"format": "pips-record"' >"$tmp/broken.json"
expect_exit 1 "a broken record" "^pips replay: record: invalid JSON" "$PIPS" replay "$tmp/broken.json"
# 3: a budget ran out (the coaster needs about 45 s)
expect_exit 3 "a solve past its --time" "^pips solve: .*" "$PIPS" solve nimitz --time 0.2 --threads 1
# 130: interrupted
"$PIPS" play tictacdoh --seat human --seat random </dev/zero >/dev/null 2>&1 &
sleep 0.3
kill -INT $! 2>/dev/null
wait $!; rc=$?
[ "$rc" = 130 ]; check "play interrupted exits 130 ($rc)" $?

# The scheme is written in --help and the man page.
"$PIPS" --help >"$tmp/help"
for code in 0 1 2 3 130; do
    grep -q "^$code: " "$tmp/help"; check "pips --help documents exit status $code" $?
done
man_page=$(dirname "$PIPS")/share/pips.1
if [ -f "$man_page" ]; then
    for code in 0 1 2 3 130; do
        sed -n '/^\.SH "EXIT STATUS"/,/^\.SH/p' "$man_page" | grep -q "^\.B $code$"
        check "the man page documents exit status $code" $?
    done
else
    check "the man page is built beside pips ($man_page)" 1
fi

finish
