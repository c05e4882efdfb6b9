/*
 * lua_bench.c — the speed of rule scripts and Lua games against native C, in
 * one run (bench/lua.sh runs it; docs/lua.md shows the figures). For each
 * built-in game: seeded random playouts per second natively, under a
 * one-line move-only `legal` script, and under a script that reads
 * state.view (which builds the state table); then the Lua Tic Tac Doh!
 * against the C one: random playouts per second and perft nodes per second.
 * Each figure runs for about SECONDS (default 1) of processor time on one core.
 *
 * usage: bench_lua SOURCE_DIR [SECONDS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "pips/game.h"

/* Processor time of this thread: the machine is shared, so wall time would
 * count other people's work. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Random playouts from the start for about secs: playouts per second. */
static double playouts_per_s(const pips_game *g, double secs, double *plies_per_game)
{
    void *s = pips_state_new(g, NULL);
    pips_move *buf = calloc(pips_max_moves(g), sizeof *buf);
    pips_rng rng;
    pips_rng_seed(&rng, 1);
    unsigned long n = 0, plies = 0;
    double t0 = now(), dt = 0;
    while (dt < secs || n < 3) {
        g->def->initial(g, s);
        plies += pips_random_playout(g, s, &rng, buf, 100000);
        n++;
        dt = now() - t0;
    }
    if (pips_game_failed(g, NULL)) {
        fprintf(stderr, "bench_lua: %s failed\n", g->def->name);
        exit(1);
    }
    free(buf);
    pips_state_free(g, s);
    if (plies_per_game)
        *plies_per_game = (double)plies / n;
    return n / dt;
}

static double perft_per_s(const pips_game *g, int depth, uint64_t *nodes)
{
    void *s = pips_state_new(g, NULL);
    g->def->initial(g, s);
    double t0 = now();
    *nodes = pips_perft(g, s, depth);
    double dt = now() - t0;
    pips_state_free(g, s);
    return *nodes / dt;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f) != 0) {
        fprintf(stderr, "bench_lua: cannot write %s\n", path);
        exit(1);
    }
}

static pips_game *make(const char *name, const char *rules)
{
    char opt[300];
    snprintf(opt, sizeof opt, "rules=%s", rules ? rules : "none");
    const char *kv[1] = {opt};
    pips_error err;
    pips_game *g = pips_game_new(name, kv, 1, NULL, &err);
    if (!g) {
        fprintf(stderr, "bench_lua: %s: %s\n", name, err.msg);
        exit(1);
    }
    return g;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bench_lua SOURCE_DIR [SECONDS]\n");
        return 2;
    }
    double secs = argc > 2 ? atof(argv[2]) : 1.0;
    char dir[] = "/tmp/pips_bench_lua_XXXXXX";
    if (!mkdtemp(dir)) {
        perror("bench_lua");
        return 1;
    }
    char move_only[64], view[64], ttd[400];
    snprintf(move_only, sizeof move_only, "%s/move_only.lua", dir);
    snprintf(view, sizeof view, "%s/view.lua", dir);
    snprintf(ttd, sizeof ttd, "%s/examples/games/tictacdoh.lua", argv[1]);
    write_file(move_only, "function legal(state, move) return move ~= '' end\n");
    write_file(view, "function legal(state, move) return state.view ~= nil end\n");

    printf("random playouts per second of processor time from the start, one core, about "
           "%.1f s each\n\n", secs);
    printf("| game | plies/game | native | move-only legal | ratio | legal reading state.view "
           "| ratio |\n|---|---|---|---|---|---|---|\n");
    for (size_t i = 0; i < pips_game_count(); i++) {
        const char *name = pips_game_def_at(i)->name;
        pips_game *native = make(name, NULL), *mo = make(name, move_only),
                  *vw = make(name, view);
        double plies;
        double r0 = playouts_per_s(native, secs, &plies);
        double r1 = playouts_per_s(mo, secs, NULL);
        double r2 = playouts_per_s(vw, secs, NULL);
        printf("| %s | %.1f | %.0f | %.0f | %.1f%% | %.1f | %.2f%% |\n", name, plies, r0, r1,
               100 * r1 / r0, r2, 100 * r2 / r0);
        fflush(stdout);
        pips_game_free(native);
        pips_game_free(mo);
        pips_game_free(vw);
    }
    pips_error err;
    pips_game *c = pips_game_new("tictacdoh", NULL, 0, NULL, &err);
    pips_game *lua = pips_game_new(ttd, NULL, 0, NULL, &err);
    if (!c || !lua) {
        fprintf(stderr, "bench_lua: %s\n", err.msg);
        return 1;
    }
    uint64_t nc, nl;
    double pc = playouts_per_s(c, secs, NULL), pl = playouts_per_s(lua, secs, NULL);
    double fc = perft_per_s(c, 5, &nc), fl = perft_per_s(lua, 4, &nl);
    printf("\nTic Tac Doh! in Lua (examples/games/tictacdoh.lua) against C\n\n");
    printf("| figure | C | Lua | ratio |\n|---|---|---|---|\n");
    printf("| random playouts/s | %.0f | %.0f | %.2f%% |\n", pc, pl, 100 * pl / pc);
    printf("| perft nodes/s (C depth 5, Lua depth 4) | %.0f | %.0f | %.3f%% |\n", fc, fl,
           100 * fl / fc);
    pips_game_free(c);
    pips_game_free(lua);
    unlink(move_only);
    unlink(view);
    rmdir(dir);
    return 0;
}
