/*
 * ladder_json.c — a ladder's ratings and pairwise results as one JSON
 * document (pips_ladder_json in pips/ladder.h): the figures of ratings.csv
 * and pairs.csv, for programs (`pips.ladder` in Python returns it).
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "lab/lab_impl.h"
#include "pips/ladder.h"

/* "k=v k=v" (pips_ladder.options) as an object of strings. */
static json_t *options_object(const char *text)
{
    json_t *o = json_object();
    char buf[sizeof ((pips_ladder *)0)->options];
    strncpy(buf, text, sizeof buf - 1);
    buf[sizeof buf - 1] = '\0';
    for (char *save = NULL, *kv = strtok_r(buf, " ", &save); o && kv;
         kv = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(kv, '=');
        if (eq) {
            *eq = '\0';
            json_object_set_new(o, kv, json_string(eq + 1));
        }
    }
    return o;
}

bool pips_ladder_json(const pips_ladder *l, pips_str *out)
{
    json_t *agents = json_array(), *pairs = json_array();
    for (size_t r = 0; agents && r < l->n; r++) {
        const pips_ladder_agent *a = &l->agent[l->order[r]];
        json_array_append_new(
            agents, json_pack("{s:I, s:s, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f, s:f}",
                              "rank", (json_int_t)(r + 1), "spec", a->spec, "elo", a->elo, "se",
                              a->se, "lo", a->lo, "hi", a->hi, "games", a->games, "points",
                              a->points, "score", lab_rate(a->points, a->games), "wins",
                              a->wins, "draws", a->draws, "losses", a->losses));
    }
    for (size_t i = 0; pairs && i < l->n; i++)
        for (size_t j = i + 1; j < l->n; j++) {
            double n = l->games[i][j], s = lab_rate(l->points[i][j], n), lo, hi;
            pips_wilson(s, n, 1.96, &lo, &hi);
            json_array_append_new(
                pairs, json_pack("{s:s, s:s, s:f, s:f, s:f, s:f, s:f}", "a", l->agent[i].spec,
                                 "b", l->agent[j].spec, "games", n, "points_a",
                                 l->points[i][j], "score_a", s, "score_a_lo", lo,
                                 "score_a_hi", hi));
        }
    json_t *doc = json_pack("{s:s, s:s, s:o, s:i, s:I, s:I, s:I, s:I, s:I, s:f, s:f, s:o, s:o}",
                            "game", l->game, "title", l->title, "options",
                            options_object(l->options), "players", l->np, "games_per_table",
                            (json_int_t)l->games_per_table, "games_asked",
                            (json_int_t)l->games_asked, "seatings", (json_int_t)l->seatings,
                            "tables", (json_int_t)l->tables, "seed", (json_int_t)l->seed,
                            "prior", l->prior, "seconds", l->seconds, "agents", agents,
                            "pairs", pairs);
    char *text = doc ? json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
    json_decref(doc);
    if (!text)
        return false;
    pips_str_cat(out, text);
    free(text);
    return !out->failed;
}
