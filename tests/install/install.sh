#!/usr/bin/env bash
# install.sh BUILD_DIR SOURCE_DIR [EXTRA_CFLAGS] — installs the build into a
# temporary prefix and checks what a packager and a C programmer rely on:
# every installed file, the shared library's soname, pips.pc (used through
# pkg-config, shared and --static), and the installed man page, completion
# and `pips --version`. EXTRA_CFLAGS are the build's sanitizer flags.
set -u
build=$1 src=$(cd "$2" && pwd) extra=${3:-}
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check() { if [ "$2" != 0 ]; then echo "FAIL: $1"; fail=1; else echo "ok: $1"; fi; }

prefix=$tmp/prefix
cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1
check "cmake --install into a temporary prefix" $?
[ -x "$prefix/bin/pips" ]; check "bin/pips installed" $?
libdir=$(dirname "$(find "$prefix" -name pips.pc | head -n 1)")/..
[ -f "$libdir/libpips.a" ]; check "static libpips.a" $?
[ -L "$libdir/libpips.so" ] && [ -f "$libdir/libpips.so.0" ]; check "shared libpips.so and its soname link" $?
soname=$(objdump -p "$libdir/libpips.so" | awk '/SONAME/ {print $2}')
[ "$soname" = libpips.so.0 ]; check "soname is libpips.so.0 ($soname)" $?
for h in core game agent match lab ladder table view version; do
    [ -f "$prefix/include/pips/$h.h" ]; check "header pips/$h.h" $?
done
[ ! -e "$prefix/include/pips/server.h" ]; check "the server's header stays private" $?
[ -f "$prefix/share/man/man1/pips.1" ]; check "man page" $?
[ -f "$prefix/share/bash-completion/completions/pips" ]; check "bash completion" $?
[ -f "$prefix/share/zsh/site-functions/_pips" ]; check "zsh completion" $?
[ -f "$prefix/share/fish/vendor_completions.d/pips.fish" ]; check "fish completion" $?
# the installed pips points `rules` at the installed docs
"$prefix/bin/pips" rules nimitz | tail -n 2 | tr '\n' ' ' | grep -q "$prefix/share/doc/pips/games/nimitz.md"
check "pips rules names the installed page of the game" $?
[ -f "$prefix/share/doc/pips/README.md" ] && [ -f "$prefix/share/doc/pips/engine-protocol.md" ]
check "docs" $?

# The man page documents every command and every option of `pips --help`.
man=$(groff -man -Tascii -ww "$prefix/share/man/man1/pips.1" 2>"$tmp/groff.err" | col -b)
[ ! -s "$tmp/groff.err" ]; check "groff reads the man page without warnings" $?
for cmd in $("$prefix/bin/pips" --help | awk '/^commands:/ {on=1; next} /^$/ {on=0} on {print $1}'); do
    echo "$man" | grep -q "pips $cmd"; check "man page has 'pips $cmd'" $?
    for flag in $("$prefix/bin/pips" "$cmd" --help | grep -o -- '^  --[a-z-]*'); do
        echo "$man" | grep -q -- "$flag"; check "man page has $cmd $flag" $?
    done
done

# The installed command runs from its prefix.
"$prefix/bin/pips" --version | grep -q '^pips [0-9]'; check "installed pips --version" $?
bash -c "source '$prefix/share/bash-completion/completions/pips'; COMP_WORDS=(pips pe); COMP_CWORD=1; _pips; [ \"\${COMPREPLY[*]}\" = perft ]"
check "bash completion completes 'pe' to perft" $?
bash -c "source '$prefix/share/bash-completion/completions/pips'; COMP_WORDS=(pips perft nim); COMP_CWORD=2; _pips; [ \"\${COMPREPLY[*]}\" = nimitz ]"
check "bash completion completes game names" $?
if command -v zsh >/dev/null; then
    zsh -n "$prefix/share/zsh/site-functions/_pips"; check "zsh completion parses" $?
fi

# The installed `pips serve` serves the installed web UI.
[ -f "$prefix/share/pips/web/index.html" ]; check "web UI installed" $?
mkdir -p "$tmp/elsewhere" && cp -r "$prefix" "$tmp/elsewhere/p" # a moved install works too
echo '<!-- the moved copy -->' >>"$tmp/elsewhere/p/share/pips/web/index.html"
"$tmp/elsewhere/p/bin/pips" serve --port 0 --db :memory: >"$tmp/serve.out" 2>&1 &
serve_pid=$!
for _ in $(seq 50); do grep -q listening "$tmp/serve.out" && break; sleep 0.1; done
url=$(grep -o 'http://[^/]*/' "$tmp/serve.out")
python3 -c "import sys, urllib.request; sys.exit(0 if b'the moved copy' in urllib.request.urlopen(sys.argv[1]).read() else 1)" "$url"
check "installed pips serve serves the installed web UI ($url)" $?
kill "$serve_pid"; wait "$serve_pid" 2>/dev/null

# A C program built against the install with pkg-config.
cat >"$tmp/prog.c" <<'C'
#include <stdio.h>
#include <string.h>
#include <pips/game.h>
#include <pips/match.h>
#include <pips/version.h>
int main(void)
{
    pips_error err;
    pips_game *g = pips_game_new("tictacdoh", NULL, 0, NULL, &err);
    if (!g || strcmp(pips_version(), PIPS_VERSION_STRING) != 0)
        return 1;
    void *s = pips_state_new(g, &err); /* the start position */
    unsigned long long n = (unsigned long long)pips_perft(g, s, 3);
    printf("perft(3) %llu, libpips %s\n", n, pips_version());
    pips_state_free(g, s);
    pips_game_free(g);
    return n == 2666 ? 0 : 1;
}
C
export PKG_CONFIG_PATH=$libdir/pkgconfig
pkg-config --exists pips; check "pkg-config finds pips" $?
[ "$(pkg-config --modversion pips)" = "$("$prefix/bin/pips" --version | awk 'NR==1 {print $2}')" ]
check "pips.pc's version is the command's" $?
cc -std=c11 $extra "$tmp/prog.c" -o "$tmp/prog" $(pkg-config --cflags --libs pips)
check "compile and link with pkg-config --cflags --libs pips" $?
LD_LIBRARY_PATH=$libdir "$tmp/prog"; check "the program runs against libpips.so" $?
ldd "$tmp/prog" 2>/dev/null | grep -q 'libpips.so.0 =>'; check "it links the shared library" $?
cc -std=c11 $extra "$tmp/prog.c" -o "$tmp/prog_static" -static-libgcc \
    $(pkg-config --cflags pips) "$libdir/libpips.a" $(pkg-config --static --libs-only-l pips | sed 's/-lpips//')
check "link the static library with pkg-config --static" $?
"$tmp/prog_static" >/dev/null; check "the static program runs" $?

# Each installed header compiles alone, as C11 and as C++17, strictly, and
# every header an installed header includes is installed.
for h in "$prefix"/include/pips/*.h; do
    name=pips/$(basename "$h")
    printf '#include <%s>\n' "$name" >"$tmp/h.c"
    cc -std=c11 -Wall -Wextra -Werror -pedantic -fsyntax-only $(pkg-config --cflags pips) "$tmp/h.c"
    check "$name alone as C11" $?
    cp "$tmp/h.c" "$tmp/h.cpp"
    c++ -std=c++17 -Wall -Wextra -Werror -pedantic -fsyntax-only $(pkg-config --cflags pips) "$tmp/h.cpp"
    check "$name alone as C++17" $?
    grep -q 'extern "C"' "$h"; check "$name has extern \"C\" guards" $?
done

# The README's recipes on examples/c/*.c: shared (with an rpath, and with
# LD_LIBRARY_PATH), libpips.a with shared system libraries, and fully static.
static_ok=1
case " $extra " in *sanitize*) static_ok=0 ;; esac # sanitizer runtimes do not link -static
for ex in "$src"/examples/c/*.c; do
    name=$(basename "$ex" .c)
    cc -std=c11 -Wall -Wextra -Werror -pedantic $extra "$ex" -o "$tmp/$name" $(pkg-config --cflags --libs pips)
    check "examples/c/$name.c builds against the shared library" $?
    LD_LIBRARY_PATH=$libdir "$tmp/$name" >"$tmp/$name.out" 2>&1
    st=$?; check "$name runs against libpips.so with LD_LIBRARY_PATH: $(head -c 60 "$tmp/$name.out" | head -n 1)" $st
    cc -std=c11 $extra "$ex" -o "$tmp/$name.rpath" $(pkg-config --cflags --libs pips) \
        -Wl,-rpath,"$(pkg-config --variable=libdir pips)"
    env -u LD_LIBRARY_PATH "$tmp/$name.rpath" >/dev/null 2>&1
    check "$name runs with an rpath and no LD_LIBRARY_PATH" $?
    cc -std=c11 $extra "$ex" -o "$tmp/$name.a" $(pkg-config --cflags pips) \
        "$(pkg-config --variable=libdir pips)/libpips.a" $(pkg-config --static --libs-only-l pips | sed 's/-lpips\b//')
    check "$name links libpips.a" $?
    ! ldd "$tmp/$name.a" | grep -q libpips; check "ldd $name (libpips.a) names no libpips" $?
    "$tmp/$name.a" >"$tmp/$name.a.out" 2>&1 && cmp -s "$tmp/$name.out" "$tmp/$name.a.out"
    check "$name with libpips.a prints what the shared build printed" $?
    if [ $static_ok = 1 ]; then
        cc -std=c11 "$ex" -o "$tmp/$name.static" -static $(pkg-config --static --cflags --libs pips) 2>"$tmp/static.err"
        check "$name links fully static with pkg-config --static" $?
        ! ldd "$tmp/$name.static" 2>&1 | grep -q libpips; check "ldd $name (static) names no libpips" $?
        "$tmp/$name.static" >/dev/null 2>&1; check "the static $name runs" $?
    fi
done
# libpips.a defines pips_* and nothing else, like libpips.so: a program with
# functions of the library's internal names links statically and is not
# confused (tests/link/symbol_clash.c).
others=$(nm -g --defined-only "$libdir/libpips.a" | awk 'NF == 3 && $3 !~ /^pips_/ {print $3}')
[ -z "$others" ]; st=$?; check "libpips.a defines only pips_* ($(echo $others | head -c 80))" $st
cc -std=c11 $extra "$src/tests/link/symbol_clash.c" -o "$tmp/clash.a" $(pkg-config --cflags pips) \
    "$libdir/libpips.a" $(pkg-config --static --libs-only-l pips | sed 's/-lpips\b//')
check "a program defining nim_count, agent_new... links libpips.a" $?
"$tmp/clash.a" >/dev/null; check "and gets the library's perft and playtest" $?

# `import pips` from the install (the moved copy: the package finds libpips
# relative to itself), and the package's tests against it.
python=${PIPS_PYTHON:-/usr/bin/python3}
pydir=$(dirname "$(find "$tmp/elsewhere/p" -path '*/pips/__init__.py' | head -n 1)")/..
pyenv=(env PYTHONPATH="$pydir" PIPS_COMMAND="$tmp/elsewhere/p/bin/pips")
case " $extra " in *sanitize*) # the interpreter is not instrumented: preload the runtimes
    pyenv+=(LD_PRELOAD="$(cc -print-file-name=libasan.so):$(cc -print-file-name=libubsan.so)"
            ASAN_OPTIONS=detect_leaks=0) ;;
esac
(cd "$tmp" && "${pyenv[@]}" "$python" -c '
import os, sys, pips
lib = pips._library_path()
assert pips.__file__.startswith(sys.argv[1]) and lib.startswith(sys.argv[1]), (pips.__file__, lib)
assert pips.perft("tictacdoh", 3) == 2666
print("pips", pips.version(), "from", os.path.dirname(pips.__file__), "loads", lib)' "$tmp/elsewhere/p")
check "import pips from the moved install" $?
out=$(cd "$tmp" && "${pyenv[@]}" env -u PYTHONPATH "$python" "$src/scripts/icefrogs-forced-win.py" \
    "$tmp/elsewhere/p/bin/pips" 4 2 EAA)
[ "$(grep ': yes' <<<"$out" | grep -o 'move [SML]+b1' | sort | tr '\n' ' ')" = "move L+b1 move M+b1 move S+b1 " ]
check "scripts/icefrogs-forced-win.py finds the installed package from the command's prefix" $?
(cd "$tmp" && "${pyenv[@]}" "$python" -m unittest discover -s "$src/python/tests" >"$tmp/python.log" 2>&1) && grep -q "^OK" "$tmp/python.log"
st=$?; check "the Python tests pass against the install ($(tail -n 1 "$tmp/python.log"))" $st
[ $fail = 0 ] || tail -n 30 "$tmp/python.log"
grep -q '^tictacdoh, greedy against random, 20 games' "$tmp/playtest.out"; check "playtest prints its report" $?
grep -q '^the position: win' "$tmp/solve.out"; check "solve prints the position's value" $?
[ "$(grep -c ' \(win\|loss\|draw\)$' "$tmp/solve.out")" -gt 10 ]; check "solve prints every move's value" $?
grep -q '^result: ' "$tmp/random_game.out"; check "random_game plays to the end" $?
grep -q ' plays ' "$tmp/agent.out"; check "agent chooses a move" $?
exit $fail
