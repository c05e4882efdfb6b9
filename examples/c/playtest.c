/*
 * playtest.c — runs a small playtest (greedy against random, seats rotated)
 * and reads figures from its report: the JSON document `pips playtest`
 * writes as report.json, parsed here with jansson (which libpips links).
 *
 *   playtest [GAME [GAMES]]        e.g. playtest icefrogs 40
 */
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>
#include <pips/lab.h>

int main(int argc, char **argv)
{
    const char *seats[] = {"greedy", "random"};
    pips_playtest_opts o = {
        .game = argc > 1 ? argv[1] : "tictacdoh",
        .seats = seats,
        .n_seats = 2,
        .games = argc > 2 ? strtoul(argv[2], NULL, 10) : 20,
        .seed = 1,
        .threads = 1,
    };
    pips_error err;
    pips_playtest *pt = pips_playtest_run(&o, &err);
    if (!pt) {
        fprintf(stderr, "playtest: %s\n", err.msg);
        return 1;
    }
    pips_str text;
    pips_str_init(&text, NULL);
    json_error_t jerr;
    json_t *report = pips_playtest_json(pt, false, &text)
                         ? json_loads(pips_str_cstr(&text), 0, &jerr) : NULL;
    pips_str_free(&text);
    pips_playtest_free(pt);
    json_t *variant = json_array_get(json_object_get(report, "variants"), 0);
    if (!variant) {
        fprintf(stderr, "playtest: the report has no variant\n");
        json_decref(report);
        return 1;
    }
    printf("%s, %s against %s, %lu games\n", o.game, seats[0], seats[1], o.games);
    /* Each agent's score with its 95% interval, as report.md shows it. */
    json_t *agent;
    size_t i;
    json_array_foreach(json_object_get(variant, "agents"), i, agent) {
        json_t *score = json_object_get(agent, "score");
        printf("  %-8s %lld games, score %.3f [%.3f, %.3f]\n",
               json_string_value(json_object_get(agent, "spec")),
               json_integer_value(json_object_get(agent, "games")),
               json_number_value(json_object_get(score, "value")),
               json_number_value(json_object_get(score, "lo")),
               json_number_value(json_object_get(score, "hi")));
    }
    json_decref(report);
    return 0;
}
