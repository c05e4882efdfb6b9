# The function behind --opt, --vs-opt and --vary (src/cli/gen/completion.fish,
# appended by pips_docgen after the lines above): the option keys (KEY=) of
# the game on the command line, or after KEY= the values it accepts (choices,
# true/false, a short integer range, an integer's words), from
# `pips list --json`.
function __pips_opt_words
    set -l tokens (commandline -opc)
    set -l game
    for t in $tokens[3..-1]
        if contains -- (string lower -- $t) $__pips_games
            set game (string lower -- $t)
            break
        end
    end
    test -n "$game"; or return
    command -q $tokens[1]; or return
    set -l json ($tokens[1] list --json 2>/dev/null)
    set -l obj (string replace -r '.*\{"name":"'$game'"' '' -- $json | string replace -r '\{"name":.*' '')
    set -l cur (commandline -ct)
    if not string match -q '*=*' -- $cur
        string match -ar '"key":"[^"]*"' -- $obj | string replace -r '"key":"([^"]*)"' '$1='
        return
    end
    set -l key (string split -m1 = -- $cur)[1]
    string match -q '*"key":"'$key'"*' -- $obj; or return
    set -l opt (string replace -r '.*"key":"'$key'"' '' -- $obj | string replace -r '\}.*' '')
    if string match -q '*"type":"bool"*' -- $opt
        printf '%s=%s\n' $key true $key false
    end
    for list in choices words
        for v in (string match -r '"'$list'":\[[^]]*' -- $opt | string replace -r '.*\[' '' | string replace -a '"' '' | string split ,)
            printf '%s=%s\n' $key $v
        end
    end
    set -l min (string match -r '"min":(-?[0-9]+)' -- $opt)[2]
    set -l max (string match -r '"max":(-?[0-9]+)' -- $opt)[2]
    if test -n "$min" -a -n "$max"; and test (math $max - $min) -le 32
        for v in (seq $min $max)
            printf '%s=%s\n' $key $v
        end
    end
end
