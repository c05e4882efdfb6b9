/*
 * symbol_clash.c — a program linked against the shared libpips that defines
 * functions named like libpips' internals (nim_count, nn_state_from_text,
 * lab_report, agent_new), each wrong on purpose. libpips.so keeps its own
 * symbols local, so perft and a playtest still give the library's results.
 * Exit 0 when they do.
 */
#include <stdio.h>
#include <string.h>

#include <pips/game.h>
#include <pips/lab.h>

/* The program's own functions of those names, which must not be called. */
static int clash_calls;
size_t nim_count(const void *cf, const void *s);
size_t nim_count(const void *cf, const void *s)
{
    (void)cf, (void)s;
    clash_calls++;
    return 0;
}
int nn_state_from_text(void);
int nn_state_from_text(void) { return clash_calls++, 0; }
int lab_report(void);
int lab_report(void) { return clash_calls++, 0; }
void *agent_new(void);
void *agent_new(void) { return clash_calls++, NULL; }

int main(void)
{
    pips_error err;
    int fail = 0;
    pips_game *g = pips_game_new("nimitz", NULL, 0, NULL, &err);
    void *s = g ? pips_state_new(g, &err) : NULL;
    if (!s) {
        fprintf(stderr, "FAIL: nimitz: %s\n", err.msg);
        return 1;
    }
    uint64_t n = pips_perft(g, s, 3);
    printf("nimitz perft(3) = %llu\n", (unsigned long long)n);
    fail |= n == 0;
    pips_state_free(g, s);
    pips_game_free(g);

    const char *agents[] = {"random"};
    pips_playtest_opts o = {.game = "noname", .seats = agents, .n_seats = 1, .games = 4,
                            .seed = 1, .threads = 1};
    pips_playtest *pt = pips_playtest_run(&o, &err);
    if (!pt) {
        fprintf(stderr, "FAIL: playtest: %s\n", err.msg);
        return 1;
    }
    pips_str json;
    pips_str_init(&json, NULL);
    fail |= !pips_playtest_json(pt, false, &json) || !strstr(pips_str_cstr(&json), "\"games\"");
    printf("playtest of 4 noname games: %zu bytes of JSON\n", json.len);
    pips_str_free(&json);
    pips_playtest_free(pt);
    fail |= clash_calls != 0;
    printf("the program's own nim_count/nn_state_from_text/lab_report/agent_new called %d times\n",
           clash_calls);
    return fail;
}
