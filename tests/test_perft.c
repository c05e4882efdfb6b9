/*
 * test_perft.c — perft expectations kept as data, the way chess engines keep
 * EPD perft suites: every registered game with enumerable moves has
 * tests/perft/<game>.txt (format at the top of each file: options ;
 * position ; D1 n ; D2 n ...), and every line is counted through the game
 * interface (pips_perft_count) and compared. A game whose moves cannot be
 * listed (Noname) must have no file. A malformed line fails with its file
 * and line number, so the data cannot silently stop being checked.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pips/game.h"

#define LINE_MAX_CHARS 8192
#define MAX_FIELDS 40

/* Splits line at " ; " into at most MAX_FIELDS trimmed fields; returns how many. */
static int split_fields(char *line, char **fields)
{
    int n = 0;
    char *p = line;
    for (;;) {
        char *sep = strstr(p, " ; ");
        if (n == MAX_FIELDS)
            return -1;
        fields[n++] = p;
        if (!sep)
            break;
        *sep = '\0';
        p = sep + 3;
    }
    for (int i = 0; i < n; i++) {
        while (*fields[i] == ' ')
            fields[i]++;
        char *e = fields[i] + strlen(fields[i]);
        while (e > fields[i] && (e[-1] == ' ' || e[-1] == '\n' || e[-1] == '\r'))
            *--e = '\0';
    }
    return n;
}

/* Builds the game of one line from its OPTIONS field ("-" or KEY=VALUE ...). */
static pips_game *game_of(const char *name, char *options, const char *where)
{
    const char *kv[PIPS_MAX_OPTIONS];
    size_t n = 0;
    if (strcmp(options, "-") != 0)
        for (char *tok = strtok(options, " "); tok; tok = strtok(NULL, " ")) {
            if (n == PIPS_MAX_OPTIONS)
                fail_msg("%s: more than %d options", where, PIPS_MAX_OPTIONS);
            kv[n++] = tok;
        }
    pips_error err;
    pips_game *g = pips_game_new(name, kv, n, NULL, &err);
    if (!g)
        fail_msg("%s: %s", where, err.msg);
    return g;
}

/* Checks one data line; returns the number of counts compared. */
static int check_line(const char *name, char *line, const char *where)
{
    char *f[MAX_FIELDS];
    int nf = split_fields(line, f);
    if (nf < 3)
        fail_msg("%s: expected OPTIONS ; POSITION ; Dk N ...", where);
    pips_game *g = game_of(name, f[0], where);
    pips_error err;
    void *s = pips_state_new(g, &err);
    assert_non_null(s);
    if (!strcmp(f[1], "start"))
        g->def->initial(g, s);
    else if (!g->def->state_from_text(g, f[1], s, &err))
        fail_msg("%s: position: %s", where, err.msg);
    unsigned seen = 0;
    for (int i = 2; i < nf; i++) {
        int depth;
        unsigned long long want;
        char extra;
        if (sscanf(f[i], "D%d %llu %c", &depth, &want, &extra) != 2 || depth < 1 || depth > 30)
            fail_msg("%s: field '%s' is not 'Dk N' with k in 1..30", where, f[i]);
        if (seen >> depth & 1)
            fail_msg("%s: depth %d given twice", where, depth);
        seen |= 1u << depth;
        uint64_t got;
        if (!pips_perft_count(g, s, depth, &got, &err))
            fail_msg("%s: perft(%d): %s", where, depth, err.msg);
        if (got != want)
            fail_msg("%s: perft(%d) = %llu, expected %llu", where, depth,
                     (unsigned long long)got, want);
    }
    pips_state_free(g, s);
    pips_game_free(g);
    return nf - 2;
}

static void test_perft_suites(void **st)
{
    (void)st;
    static char line[LINE_MAX_CHARS];
    int suites = 0;
    for (size_t gi = 0; gi < pips_game_count(); gi++) {
        const pips_game_def *d = pips_game_def_at(gi);
        char path[1024];
        snprintf(path, sizeof path, "%s/tests/perft/%s.txt", PIPS_SOURCE_DIR, d->name);
        FILE *f = fopen(path, "r");
        if (d->flags & PIPS_GAME_NOT_ENUMERABLE) {
            if (f)
                fail_msg("%s: %s has no perft (moves not enumerable)", path, d->name);
            continue;
        }
        if (!f)
            fail_msg("%s: missing (%s)", path, strerror(errno));
        int lineno = 0, positions = 0, counts = 0;
        while (fgets(line, sizeof line, f)) {
            lineno++;
            if (!strchr(line, '\n') && !feof(f))
                fail_msg("%s:%d: line longer than %d characters", path, lineno,
                         LINE_MAX_CHARS - 2);
            const char *p = line + strspn(line, " \t\r\n");
            if (!*p || *p == '#')
                continue;
            char where[1100];
            snprintf(where, sizeof where, "%s:%d", path, lineno);
            counts += check_line(d->name, line, where);
            positions++;
        }
        fclose(f);
        if (positions == 0)
            fail_msg("%s: no positions", path);
        print_message("%-10s %d positions, %d counts\n", d->name, positions, counts);
        suites++;
    }
    assert_true(suites >= 4);
}

/* The reader itself: fields split and trimmed, "-" options, a bad field. */
static void test_split_fields(void **st)
{
    (void)st;
    char text[] = "players=3 ; start ; D1 6 ; D2 36\n";
    char *f[MAX_FIELDS];
    assert_int_equal(split_fields(text, f), 4);
    assert_string_equal(f[0], "players=3");
    assert_string_equal(f[1], "start");
    assert_string_equal(f[3], "D2 36");
    char state[] = "- ; mover=R phase=roll | h0:R ; D1 64";
    assert_int_equal(split_fields(state, f), 3);
    assert_string_equal(f[1], "mover=R phase=roll | h0:R");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split_fields),
        cmocka_unit_test(test_perft_suites),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
