# The completion function (src/cli/gen/completion.bash, appended by
# pips_docgen after the tables above). It reads the words from COMP_LINE up
# to the cursor, so '=' and ':' (word breaks to bash) stay inside a word;
# game options come from `pips list --json`, read once per shell.

# __pips_schema_opt GAME [KEY]: without KEY the game's option keys, with it
# the values KEY accepts (choices, true/false, a short integer range and its
# words, a text's default), from the JSON schema.
__pips_schema_opt() {
    if [ -z "${__pips_json:-}" ]; then
        __pips_json=$("$__pips_cmd" list --json 2>/dev/null) || __pips_json=
    fi
    local game=${1,,} obj
    case $__pips_json in *"{\"name\":\"$game\""*) ;; *) return ;; esac
    obj=${__pips_json#*"{\"name\":\"$game\""}
    obj=${obj%%"{\"name\":"*}
    if [ $# -lt 2 ]; then
        local rest=$obj key
        while [[ $rest == *'"key":"'* ]]; do
            rest=${rest#*'"key":"'}
            key=${rest%%'"'*}
            printf '%s\n' "$key"
        done
        return
    fi
    case $obj in *"\"key\":\"$2\""*) ;; *) return ;; esac
    local opt=${obj#*"\"key\":\"$2\""}
    opt=${opt%%'}'*}
    case $opt in
    *'"type":"bool"'*) printf '%s\n' true false ;;
    *'"type":"text"'*) # free text: its default, as an example of the form
        local def=${opt#*'"default":"'}
        printf '%s\n' "${def%%'"'*}"
        ;;
    esac
    local list
    for list in choices words; do
        if [[ $opt == *"\"$list\":["* ]]; then
            local items=${opt#*"\"$list\":["}
            items=${items%%']'*}
            items=${items//'"'/}
            printf '%s\n' ${items//,/ }
        fi
    done
    if [[ $opt == *'"min":'* && $opt == *'"max":'* ]]; then
        local min=${opt#*'"min":'} max=${opt#*'"max":'}
        min=${min%%[,\}]*}
        max=${max%%[,\}]*}
        if [ $((max - min)) -le 32 ] 2>/dev/null; then
            seq "$min" "$max"
        fi
    fi
}

# __pips_agents CUR HUMAN: agent specs for CUR: kinds, levels, KIND:PARAM=
# after a kind's colon, and 'human' when HUMAN is 1.
__pips_agents() {
    local cur=$1 words="$__pips_kinds $__pips_levels"
    [ "$2" = 1 ] && words="human $words"
    if [[ $cur == *:* ]]; then
        local kind=${cur%%:*} head=${cur%,*} p out=
        [[ $cur == *,* ]] && head="$head," || head="$kind:"
        for p in ${__pips_params[$kind]:-} $__pips_levels; do
            out+=" $head$p"
        done
        words=$out
    fi
    compgen -W "$words" -- "$cur"
}

_pips() {
    local line
    if [ -n "${COMP_LINE:-}" ]; then
        line=${COMP_LINE:0:${COMP_POINT:-${#COMP_LINE}}}
    else
        line="${COMP_WORDS[*]:0:COMP_CWORD+1}"
    fi
    local -a words
    read -ra words <<<"$line"
    [[ $line == *[[:space:]] || ${#words[@]} -eq 0 ]] && words+=("")
    local n=${#words[@]} cur=${words[-1]} prev=
    [ "$n" -ge 2 ] && prev=${words[-2]}
    __pips_cmd=${words[0]:-pips}
    COMPREPLY=()
    if [ "$n" -le 2 ]; then
        COMPREPLY=($(compgen -W "$__pips_commands --help --version" -- "$cur"))
        return
    fi
    local cmd=${words[1]}
    # --key=value: complete the value as after '--key'
    local prefix=
    if [[ $cur == --*=* ]]; then
        prev=${cur%%=*}
        prefix=$prev=
        cur=${cur#*=}
    fi
    # the game: the first word after the command that is no flag or flag's value
    local game= i
    for ((i = 2; i < n - 1; i++)); do
        local w=${words[i]}
        if [[ $w == --*=* ]]; then continue; fi
        if [[ $w == -* ]]; then
            [[ " ${__pips_valued[$cmd]:-} " == *" $w "* ]] && ((i++))
            continue
        fi
        game=$w
        break
    done
    local -a out=()
    if [[ " ${__pips_valued[$cmd]:-} " == *" $prev "* ]]; then
        case $prev in
        --opt | --vs-opt | --vary)
            if [[ $cur == *=* ]]; then
                local key=${cur%%=*} v
                for v in $(__pips_schema_opt "$game" "$key"); do out+=("$key=$v"); done
            else
                local k
                for k in $(__pips_schema_opt "$game"); do out+=("$k="); done
            fi
            out=($(compgen -W "${out[*]}" -- "$cur"))
            [[ $cur != *=* ]] && compopt -o nospace 2>/dev/null # a key: its value follows
            ;;
        --seat | --agent) out=($(__pips_agents "$cur" $([ "$prev" = --seat ] && echo 1))) ;;
        --seats | --agents)
            local last=${cur##*,} head=
            [[ $cur == *,* ]] && head=${cur%,*},
            local w
            for w in $(__pips_agents "$last" 0); do out+=("$head$w"); done
            ;;
        --record | --resume | --rules | --db) out=($(compgen -f -- "$cur")) ;;
        --out | --web) out=($(compgen -d -- "$cur")) ;;
        *)
            local choices=${__pips_choices["$cmd $prev"]:-}
            [ -n "$choices" ] && out=($(compgen -W "$choices" -- "$cur"))
            ;;
        esac
    elif [[ $cur == -* ]]; then
        out=($(compgen -W "--help ${__pips_flags[$cmd]:-}" -- "$cur"))
    elif [ -z "$game" ]; then
        case ${__pips_args[$cmd]:-} in
        game) # names are case-insensitive: "Nim" completes to nimitz
            local g
            for g in $__pips_games; do [[ $g == "${cur,,}"* ]] && out+=("$g"); done
            ;;
        file) out=($(compgen -f -- "$cur")) ;;
        command) out=($(compgen -W "$__pips_commands" -- "$cur")) ;;
        esac
    fi
    # bash replaces only the part of the word after its last '=' or ':'
    local whole=$prefix$cur
    local cut=${whole%"${whole##*[=:]}"}
    local r
    COMPREPLY=()
    for r in "${out[@]}"; do
        r=$prefix$r
        [[ $COMP_WORDBREAKS == *=* || $COMP_WORDBREAKS == *:* ]] && r=${r#"$cut"}
        COMPREPLY+=("$r")
    done
}
complete -F _pips pips
