#!/usr/bin/env bash
# completion.sh — the bash completion generated beside pips (share/pips.bash,
# from src/cli/help.c and src/cli/gen/completion.bash), driven as bash
# drives it: COMP_LINE and COMP_POINT set, _pips called, COMPREPLY read.
# Commands, games (any case), option keys and values from `pips list
# --json`, agents after --seat/--seats/--agents, files after --record and
# --out, nothing after --seed; the zsh script is checked for syntax and its
# --opt words, and the fish one driven through fish's own completer, where
# those shells are installed (scripts/deps.sh installs both).
set -u
. "$(dirname "$0")/lib/common.sh"
share=$(dirname "$PIPS")/share
[ -f "$share/pips.bash" ]; check "the bash completion is built ($share/pips.bash)" $?
export PATH="$(dirname "$PIPS"):$PATH" # the function asks `pips list --json`
touch "$tmp/game.json" "$tmp/gamma.txt"
mkdir "$tmp/gdir"

# comp LINE EXPECTED: completing at the end of LINE gives exactly EXPECTED
# (the words bash replaces, space-separated, in order), with bash's own
# word breaks (COMP_WORDBREAKS holds '=' and ':').
comp() {
    local got
    got=$(bash -c 'source "$1"; COMP_LINE=$2 COMP_POINT=${#2}; _pips; echo "${COMPREPLY[*]}"' \
        _ "$share/pips.bash" "$1" 2>&1)
    [ "$got" = "$2" ]
    st=$?; check "complete '$1' -> '$2'$([ "$got" = "$2" ] || echo " (got '$got')")" $st
}
# every option key of ziggurat, from the schema
zig_keys=$("$PIPS" list --json | python3 -c 'import json, sys
games = json.load(sys.stdin)["games"]
print(" ".join(o["key"] + "=" for g in games if g["name"] == "ziggurat" for o in g["options"]))')

comp "pips pl" "play playtest"
comp "pips " "$("$PIPS" --help | sed -n '/^commands:/,/^$/p' | awk 'NF > 1 { print $1 }' | tr '\n' ' ')--help --version"
comp "pips play " "tictacdoh icefrogs ziggurat noname nimitz"
comp "pips play Nim" "nimitz"
comp "pips solve t" "tictacdoh"
comp "pips play nimitz --" "--help $("$PIPS" play --help | sed -n 's/^  \(--[a-z-]*\).*/\1/p' | grep -v -- --help | tr '\n' ' ' | sed 's/ $//')"
comp "pips play nimitz --opt " "board= players= sets= colors= misere= tree_orientation="
comp "pips play nimitz --opt m" "misere="
comp "pips play nimitz --opt misere=" "true false"
comp "pips play nimitz --opt misere=t" "true"
comp "pips play tictacdoh --opt players=" "2 3 4"
comp "pips play nimitz --opt tree_orientation=" "shared free"
comp "pips play ziggurat --opt players=3 --opt " "$zig_keys"
comp "pips perft icefrogs 3 --opt pl" "players="
comp "pips playtest nimitz --seats random --vary players=" "2 3 4 5 6"
comp "pips play nimitz --opt=mis" "misere="
comp "pips play nimitz --seed " ""
comp "pips play nimitz --seed=" ""
comp "pips playtest nimitz --seed 1" ""
comp "pips play nimitz --seat " "human random greedy alphabeta expectimax mcts brs oracle easy medium hard max"
comp "pips play nimitz --seat h" "human hard"
comp "pips play nimitz --seat mcts:it" "iters="
comp "pips play nimitz --seat mcts:iters=100,thr" "100,threads="
comp "pips analyze nimitz --state - --agent ora" "oracle"
comp "pips playtest nimitz --seats random,gr" "random,greedy"
comp "pips ladder nimitz --agents random,greedy,m" "random,greedy,mcts random,greedy,medium random,greedy,max"
comp "pips play nimitz --record $tmp/gam" "$tmp/game.json $tmp/gamma.txt"
comp "pips ladder nimitz --out $tmp/g" "$tmp/gdir"
comp "pips replay $tmp/game." "$tmp/game.json"
comp "pips serve --sync " "full normal"
comp "pips help pe" "perft"
comp "pips play nimitz --opt misere=true --seat random n" ""

# The generated scripts of the other shells parse.
if command -v zsh >/dev/null; then
    zsh -n "$share/_pips"; check "the zsh completion parses" $?
    # zsh_words GAME CUR EXPECTED: the words zsh's --opt completer offers
    zsh_words() {
        local got
        got=$(zsh -c "$(sed -n '/^_pips_opt_words()/,/^}/p' "$share/_pips")"'
            _pips_opt_words "$@"' _ "$PIPS" "$1" "$2" | tr '\n' ' ' | sed 's/ $//')
        [ "$got" = "$3" ]
        st=$?; check "zsh --opt for $1 '$2' -> '$3'$([ "$got" = "$3" ] || echo " (got '$got')")" $st
    }
    zsh_words nimitz "" "board= players= sets= colors= misere= tree_orientation="
    zsh_words Nimitz "misere=" "misere=true misere=false"
    zsh_words tictacdoh "players=" "players=2 players=3 players=4"
    grep -q "'\*--opt=\[a game option (repeatable)\]:KEY=VALUE:_pips_opt'" "$share/_pips"
    check "zsh completes --opt with them" $?
else
    echo "skip: zsh is not installed"
fi
if command -v fish >/dev/null; then
    fish -n "$share/pips.fish"; check "the fish completion parses" $?
else
    echo "skip: fish is not installed"
fi
grep -q '^complete -c pips -n "__fish_seen_subcommand_from play" -l seed -x -d ' "$share/pips.fish"
check "fish: nothing offered after --seed" $?
# fish_comp LINE EXPECTED: fish's own completer on LINE gives exactly EXPECTED
fish_comp() {
    local got
    got=$(fish -c 'source $argv[1]; complete -C $argv[2]' "$share/pips.fish" "$1" 2>&1 |
        cut -f1 | tr '\n' ' ' | sed 's/ $//')
    [ "$got" = "$2" ]
    st=$?; check "fish completes '$1' -> '$2'$([ "$got" = "$2" ] || echo " (got '$got')")" $st
}
if command -v fish >/dev/null; then
    fish_comp "pips pe" "perft"
    fish_comp "pips play nim" "nimitz"
    fish_comp "pips play nimitz --opt " "board= colors= misere= players= sets= tree_orientation="
    fish_comp "pips play Nimitz --opt misere=" "misere=false misere=true"
    fish_comp "pips playtest tictacdoh --seats random --vary players=" "players=2 players=3 players=4"
    fish_comp "pips play nimitz --seed " ""
    fish_comp "pips ladder nimitz --agents " "alphabeta brs easy expectimax greedy hard max mcts medium oracle random"
fi

finish
