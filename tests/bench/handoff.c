/*
 * handoff.c — how many wins of a self-play series came from a hand-off:
 * the seat that moved just before the winner left the winner a move that
 * wins at once (docs/ai.md, "Hand-offs at three seats and more").
 *   bench_handoff GAME GAMES SEED SPEC,SPEC,... [KEY=VALUE]...
 * (SPEC;SPEC;... when a spec has parameters of its own, "a:x=1,y=2;greedy").
 * Seats are rotated over the games (game i gives seat s the spec
 * (s + i) mod n), every agent and chance outcome is seeded from SEED.
 *
 * A decisive game (one seat scores 1) is looked at from the winner W's
 * last placement back: P is the decision just before it, made by another
 * seat (or, when the game ended without a placement by W, the final
 * decision itself). P's move was a hand-off when after it the game was
 * over with W the winner, or W was to move with some move that ends the
 * game with W the winner. The hand-off was forced when every legal move
 * of P (for a game without a move list: every candidate) was one, and
 * avoidable when P had a quiet move instead: one after which the game went
 * on, the next seat could not win at once, and the next seat had a move
 * after which the game went on and the seat then to move could not win at
 * once either (so nobody's win was forced within two placements). A forced
 * hand-off was set up when the seat A that moved just before P (neither P
 * nor W) had a quiet move at its turn, yet left P that spot: the kingmaking
 * an evaluation must not reward.
 * A digest of every move played tells whether two builds played the same
 * games (for checking that a change leaves two-seat play alone).
 * Prints one line per count with its 95% Wilson interval over the
 * decisive games, and a JSON line for scripts.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pips/agent.h"
#include "pips/game.h"
#include "core/unchecked.h"

#define MAX_PLIES 4000

typedef struct scratch {
    pips_move *moves, *replies, *quiet_moves, *own_moves;
    double *prob;
    unsigned char *child, *grandchild, *quiet_child, *quiet_tmp;
} scratch;

/* The seat that scores 1 alone, or -1. */
static int sole_winner(const pips_game *g, const void *st)
{
    double r[PIPS_MAX_PLAYERS];
    g->def->returns(g, st, r);
    int w = -1;
    for (int p = 0; p < pips_num_players(g); p++)
        if (r[p] >= 1.0 - 1e-9)
            w = w < 0 ? p : -2;
    return w >= 0 ? w : -1;
}

/* With w to move in st: does some move of w end the game with w winning? */
static bool wins_at_once(const pips_game *g, const void *st, int w, scratch *sc, uint64_t salt)
{
    pips_rng rng;
    pips_rng_derive(&rng, salt, g->def->hash(g, st));
    size_t n = pips_node_moves(g, st, &rng, sc->replies, NULL);
    for (size_t i = 0; i < n; i++) {
        memcpy(sc->grandchild, st, g->def->state_size);
        g->def->apply(g, sc->grandchild, sc->replies[i]);
        if (pips_to_move(g, sc->grandchild) == PIPS_OVER && sole_winner(g, sc->grandchild) == w)
            return true;
    }
    return false;
}

/* Does move m of the mover in st hand w a win (see the file comment)? */
static bool hands_off(const pips_game *g, const void *st, pips_move m, int w, scratch *sc,
                      uint64_t salt)
{
    memcpy(sc->child, st, g->def->state_size);
    g->def->apply(g, sc->child, m);
    int who = pips_to_move(g, sc->child);
    if (who == PIPS_OVER)
        return sole_winner(g, sc->child) == w;
    return who == w && wins_at_once(g, sc->child, w, sc, salt);
}

/* With the next seat to move in st (not over, no win at once): does it have
 * a move after which the game goes on and the seat then to move cannot win
 * at once? */
static bool next_can_stay_quiet(const pips_game *g, const void *st, scratch *sc,
                                uint64_t salt, unsigned char *tmp, pips_move *moves)
{
    pips_rng rng;
    pips_rng_derive(&rng, salt ^ 0x51u, g->def->hash(g, st));
    size_t n = pips_node_moves(g, st, &rng, moves, NULL);
    for (size_t i = 0; i < n; i++) {
        memcpy(tmp, st, g->def->state_size);
        g->def->apply(g, tmp, moves[i]);
        int who = pips_to_move(g, tmp);
        if (who >= 0 && !wins_at_once(g, tmp, who, sc, salt))
            return true;
    }
    return false;
}

/* Does the mover in st have a quiet move: one after which the game goes on,
 * the next seat cannot win at once, and next_can_stay_quiet holds? */
static bool has_quiet_move(const pips_game *g, const void *st, scratch *sc, uint64_t salt)
{
    pips_rng rng;
    pips_rng_derive(&rng, salt ^ 0x71u, g->def->hash(g, st));
    size_t n = pips_node_moves(g, st, &rng, sc->own_moves, NULL);
    for (size_t i = 0; i < n; i++) {
        memcpy(sc->quiet_child, st, g->def->state_size);
        g->def->apply(g, sc->quiet_child, sc->own_moves[i]);
        int next = pips_to_move(g, sc->quiet_child);
        if (next >= 0 && !wins_at_once(g, sc->quiet_child, next, sc, salt) &&
            next_can_stay_quiet(g, sc->quiet_child, sc, salt, sc->quiet_tmp, sc->quiet_moves))
            return true;
    }
    return false;
}

static void wilson(double k, double n, double *lo, double *hi)
{
    if (n <= 0) {
        *lo = 0, *hi = 1;
        return;
    }
    double z = 1.959964, p = k / n, d = 1 + z * z / n;
    double mid = (p + z * z / (2 * n)) / d;
    double half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d;
    *lo = mid - half < 0 ? 0 : mid - half;
    *hi = mid + half > 1 ? 1 : mid + half;
}

static void print_rate(const char *what, long k, long n)
{
    double lo, hi;
    wilson((double)k, (double)n, &lo, &hi);
    printf("%-28s %5ld / %5ld = %.3f  [%.3f, %.3f]\n", what, k, n, n ? (double)k / n : 0.0, lo,
           hi);
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: %s GAME GAMES SEED SPEC,SPEC,...|SPEC;SPEC;... [KEY=VALUE]...\n",
                argv[0]);
        return 2;
    }
    long games = atol(argv[2]);
    uint64_t seed = strtoull(argv[3], NULL, 10);
    pips_error err;
    pips_game *g = pips_game_new(argv[1], (const char *const *)argv + 5, (size_t)(argc - 5),
                                 NULL, &err);
    if (!g) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    int np = pips_num_players(g);
    char specs[PIPS_MAX_PLAYERS][128], list[1024];
    snprintf(list, sizeof list, "%s", argv[4]);
    int ns = 0;
    const char *sep = strchr(list, ';') ? ";" : ","; /* ';' when specs hold commas */
    for (char *tok = strtok(list, sep); tok && ns < PIPS_MAX_PLAYERS; tok = strtok(NULL, sep))
        snprintf(specs[ns++], sizeof specs[0], "%s", tok);
    if (ns != np) {
        fprintf(stderr, "%d specs for %d seats\n", ns, np);
        return 2;
    }
    size_t mm = pips_max_moves(g), sz = g->def->state_size;
    scratch sc = {calloc(mm, sizeof(pips_move)), calloc(mm, sizeof(pips_move)),
                  calloc(mm, sizeof(pips_move)), calloc(mm, sizeof(pips_move)),
                  calloc(mm, sizeof(double)),
                  calloc(1, sz), calloc(1, sz), calloc(1, sz), calloc(1, sz)};
    unsigned char *hist = calloc(MAX_PLIES + 1, sz);
    pips_move *played = calloc(MAX_PLIES, sizeof *played);
    int *mover = calloc(MAX_PLIES, sizeof *mover);
    if (!sc.moves || !sc.replies || !sc.quiet_moves || !sc.own_moves || !sc.prob || !sc.child ||
        !sc.grandchild || !sc.quiet_child || !sc.quiet_tmp || !hist || !played || !mover) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    long decisive = 0, draws = 0, handed = 0, forced = 0, avoidable = 0, set_up = 0, capped = 0;
    uint64_t digest = 1469598103934665603ull; /* FNV-1a over every move */
    for (long gi = 0; gi < games; gi++) {
        pips_agent *agents[PIPS_MAX_PLAYERS];
        for (int s = 0; s < np; s++) {
            agents[s] = pips_agent_new(g, specs[(s + gi) % np], pips_mix64(seed * 1000003u + (uint64_t)gi * 16 + (uint64_t)s), &err);
            if (!agents[s]) {
                fprintf(stderr, "%s: %s\n", specs[(s + gi) % np], err.msg);
                return 2;
            }
        }
        pips_rng dice;
        pips_rng_derive(&dice, seed, (uint64_t)gi);
        unsigned char *st = hist;
        g->def->initial(g, st);
        int plies = 0;
        while (plies < MAX_PLIES && pips_to_move(g, st) != PIPS_OVER) {
            int who = pips_to_move(g, st);
            pips_move m;
            if (who == PIPS_CHANCE) {
                size_t n = pips_node_moves(g, st, &dice, sc.moves, sc.prob);
                m = sc.moves[pips_sample_chance(&dice, sc.prob, n)];
            } else if (!agent_choose_unchecked(agents[who], st, &m, &err)) {
                fprintf(stderr, "game %ld: %s\n", gi, err.msg);
                return 1;
            }
            for (int s = 0; s < np; s++)
                agent_observe_unchecked(agents[s], st, m);
            for (int b = 0; b < 8; b++)
                digest = (digest ^ (m >> (8 * b) & 0xFF)) * 1099511628211ull;
            mover[plies] = who;
            played[plies] = m;
            memcpy(st + sz, st, sz);
            st += sz;
            g->def->apply(g, st, m);
            plies++;
        }
        for (int s = 0; s < np; s++)
            pips_agent_free(agents[s]);
        if (pips_to_move(g, st) != PIPS_OVER) {
            capped++;
            continue;
        }
        int w = sole_winner(g, st);
        if (w < 0) {
            draws++;
            continue;
        }
        decisive++;
        /* P: the last decision, or the one before w's last placement */
        int last = plies - 1;
        while (last >= 0 && mover[last] < 0)
            last--;
        int p = last;
        if (p >= 0 && mover[p] == w)
            for (p--; p >= 0 && mover[p] < 0; p--)
                ;
        if (p < 0 || mover[p] == w)
            continue;
        const unsigned char *before = hist + (size_t)p * sz;
        uint64_t salt = seed ^ (uint64_t)gi;
        if (!hands_off(g, before, played[p], w, &sc, salt))
            continue;
        handed++;
        pips_rng rng;
        pips_rng_derive(&rng, salt, g->def->hash(g, before));
        size_t n = pips_node_moves(g, before, &rng, sc.moves, NULL);
        bool all = n > 0;
        for (size_t i = 0; i < n && all; i++)
            all = hands_off(g, before, sc.moves[i], w, &sc, salt);
        if (!all) {
            avoidable += has_quiet_move(g, before, &sc, salt);
            continue;
        }
        forced++;
        /* A: the decision before P's, by a seat other than P and W */
        int a = p - 1;
        while (a >= 0 && mover[a] < 0)
            a--;
        if (a >= 0 && mover[a] != w && mover[a] != mover[p])
            set_up += has_quiet_move(g, hist + (size_t)a * sz, &sc, salt);
    }
    printf("%s %s, %ld games (seed %llu, seats rotated): %ld decisive, %ld drawn, %ld capped\n",
           argv[1], argv[4], games, (unsigned long long)seed, decisive, draws, capped);
    print_rate("wins after a hand-off", handed, decisive);
    print_rate("wins after a forced hand-off", forced, decisive);
    print_rate("wins after an avoidable one", avoidable, decisive);
    print_rate("forced ones set up", set_up, decisive);
    printf("digest of the moves played: %016llx\n", (unsigned long long)digest);
    double lo, hi;
    wilson((double)forced, (double)decisive, &lo, &hi);
    printf("{\"game\": \"%s\", \"seats\": \"%s\", \"games\": %ld, \"decisive\": %ld, "
           "\"handed\": %ld, \"forced\": %ld, \"forced_lo\": %.4f, \"forced_hi\": %.4f, "
           "\"avoidable\": %ld, \"set_up\": %ld}\n",
           argv[1], argv[4], games, decisive, handed, forced, lo, hi, avoidable, set_up);
    free(sc.moves), free(sc.replies), free(sc.quiet_moves), free(sc.own_moves), free(sc.prob);
    free(sc.child), free(sc.grandchild), free(sc.quiet_child), free(sc.quiet_tmp);
    free(hist), free(played), free(mover);
    pips_game_free(g);
    return 0;
}
