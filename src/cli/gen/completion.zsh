# The helpers behind --opt, --vs-opt and --vary (src/cli/gen/completion.zsh,
# printed by pips_docgen before _pips): the game's option keys (KEY=) or,
# after KEY=, the values KEY accepts, from `pips list --json`.

# _pips_opt_words PIPS GAME CUR: the words for CUR (one a line).
_pips_opt_words() {
    local json obj game=${2:l} cur=$3
    json=$($1 list --json 2>/dev/null) || return 1
    [[ $json == *"{\"name\":\"$game\""* ]] || return 1
    obj=${json#*\{\"name\":\"$game\"}
    obj=${obj%%\{\"name\":*}
    if [[ $cur != *=* ]]; then
        local rest=$obj
        while [[ $rest == *'"key":"'* ]]; do
            rest=${rest#*\"key\":\"}
            print -r -- "${rest%%\"*}="
        done
        return
    fi
    local key=${cur%%=*}
    [[ $obj == *"\"key\":\"$key\""* ]] || return 1
    local opt=${obj#*\"key\":\"$key\"}
    opt=${opt%%\}*}
    [[ $opt == *'"type":"bool"'* ]] && print -l -- $key=true $key=false
    local list items v
    for list in choices words; do
        if [[ $opt == *"\"$list\":["* ]]; then
            items=${opt#*\"$list\":\[}
            items=${${items%%\]*}//\"/}
            for v in ${(s:,:)items}; do print -r -- "$key=$v"; done
        fi
    done
    if [[ $opt == *'"min":'* && $opt == *'"max":'* ]]; then
        local min=${${opt#*\"min\":}%%[,\}]*} max=${${opt#*\"max\":}%%[,\}]*}
        if (( max - min <= 32 )); then
            for v in {$min..$max}; do print -r -- "$key=$v"; done
        fi
    fi
}

# _pips_opt: completes the value of --opt and its kin for the game named on
# the line (the first word after the command that is a game, any case).
_pips_opt() {
    local w game
    for w in ${words[3,CURRENT-1]}; do
        if (( ${${(s: :)_pips_games}[(Ie)${w:l}]} )); then
            game=${w:l}
            break
        fi
    done
    [[ -n $game ]] || return 1
    local -a found
    found=(${(f)"$(_pips_opt_words $words[1] $game $PREFIX)"})
    if [[ $PREFIX == *=* ]]; then
        compadd -- $found
    else
        compadd -S '' -- $found
    fi
}
