/*
 * test_agents.c — the agents through the game interface: spec parsing and
 * errors, legality and determinism of every kind on Tic Tac Doh! and on a
 * test-only game with three players, chance and non-enumerable moves
 * (toy_game.h), forced wins found by alphabeta and mcts (checked against an
 * exact solver written here), chance handled by greedy/expectimax/mcts, and
 * mcts beating random.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pips/agent.h"
#include "toy_game.h"
#include "ai/agent_impl.h"
#include "core/unchecked.h"

static pips_game *ttd(void)
{
    pips_error err;
    pips_game *g = pips_game_new("tictacdoh", NULL, 0, NULL, &err);
    assert_non_null(g);
    return g;
}

static void *state_from(const pips_game *g, const char *text)
{
    pips_error err;
    void *s = pips_state_new(g, &err);
    assert_non_null(s);
    if (!g->def->state_from_text(g, text, s, &err))
        fail_msg("state '%s': %s", text, err.msg);
    return s;
}

/* ---- specs ------------------------------------------------------------------ */

static void test_bad_specs(void **unused)
{
    (void)unused;
    pips_game *g = ttd();
    static const struct {
        const char *spec, *needle;
    } cases[] = {
        {"", "empty spec"},
        {"foo", "unknown agent 'foo'"},
        {"mcts:iters=0", "iters='0'"},
        {"mcts:iters=abc", "iters='abc'"},
        {"mcts:depth=3", "unknown parameter 'depth'"},
        {"mcts:iters", "expected KEY=VALUE"},
        {"mcts:iters=5,", "trailing ','"},
        {"mcts:time=-1", "time='-1'"},
        {"greedy:hard", "no strength levels"},
        {"random:x=1", "takes no parameters"},
        {"greedy:noise=1.5", "noise='1.5'"},
        /* options of a model the spec does not use: refused, naming the option */
        {"mcts:opp=greedy,oppsettle=1",
         "mcts: oppsettle shapes the searches that model the other seats; it needs opp=search "
         "or opp=adapt"},
        {"mcts:opp=greedy,oppevals=9", "mcts: oppevals shapes the searches"},
        {"mcts:oppruns=4", "mcts: oppruns shapes"},
        {"mcts:opp=max,oppiters=100", "mcts: oppiters shapes"},
        {"mcts:opp=greedy,k=3", "mcts: k sets how many moves opp=topk weighs; it needs opp=topk"},
        {"mcts:opp=adapt,worst=0.5", "mcts: worst shapes the exact solve; it needs exact=N"},
        {"mcts:opp=adapt,unknown=search", "mcts: unknown shapes the exact solve"},
        {"greedy:depth=2", "greedy: unknown parameter 'depth' (noise)"},
        {"alphabeta:depth=0", "depth='0'"},
        {"alphabeta:shuffle=2", "shuffle='2'"},
        {"alphabeta:depth=3,playouts=0", "playouts='0'"},
        {"alphabeta:nodes=0", "nodes='0'"},
        {"expectimax:depth=99", "depth='99'"},
        {"expectimax:nodes=10", "nodes='10'"},
        {":x", "expected KIND"},
        {"mcts:threads=65", "threads='65'"},
        {"mcts:playout=greedy", "playout='greedy' must be policy or uniform"},
        {"mcts:widen=1.5", "widen='1.5'"},
        {"mcts:widen=0.5,widen_base=0.5", "widen_base='0.5'"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pips_error err;
        pips_error_clear(&err);
        pips_agent *a = pips_agent_new(g, cases[i].spec, 1, &err);
        if (a)
            fail_msg("spec '%s' was accepted", cases[i].spec);
        if (!strstr(err.msg, cases[i].needle))
            fail_msg("spec '%s': message '%s' lacks '%s'", cases[i].spec, err.msg,
                     cases[i].needle);
    }
    /* a spec too long for a seat is refused whole, never cut short */
    char spec[PIPS_SPEC_MAX + 8] = "mcts:iters=10";
    while (strlen(spec) < PIPS_SPEC_MAX)
        strcat(spec, ",c=1");
    pips_error too_long;
    assert_null(pips_agent_new(g, spec, 1, &too_long));
    assert_non_null(strstr(too_long.msg, "longer than 255 characters"));
    /* so is one that outgrows it once normalised: the spec stays whole, marked */
    pips_agent *a = pips_agent_new(g, "greedy", 1, &too_long);
    assert_non_null(a);
    size_t len = 0;
    while (!a->spec_overflow) {
        len = strlen(a->spec);
        agent_spec_add(a, "key%zu=%s", len, "0123456789");
    }
    assert_int_equal(strlen(a->spec), len);
    assert_true(len + 20 >= PIPS_SPEC_MAX); /* only the last add failed */
    pips_agent_free(a);
    /* alphabeta refuses games with chance or more than two players */
    pips_game *toy = toy_game_new(&toy_race_def, NULL, 0);
    assert_non_null(toy);
    pips_error err;
    assert_null(pips_agent_new(toy, "alphabeta:depth=2", 1, &err));
    assert_int_equal(err.code, PIPS_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "without chance"));
    pips_game_free(toy);
    pips_game_free(g);
}

/* With three seats alphabeta needs the paranoid reduction named: refused
 * without it; with it, the third seat takes a line of three at once (TTD-R5)
 * and says the move wins, and the spec reads back with it. */
static void test_alphabeta_paranoid(void **unused)
{
    (void)unused;
    static const char *const three[] = {"players=3"};
    pips_error err;
    pips_game *g = pips_game_new("tictacdoh", three, 1, NULL, &err);
    assert_non_null(g);
    assert_null(pips_agent_new(g, "alphabeta:depth=3", 1, &err));
    assert_int_equal(err.code, PIPS_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "paranoid=1"));
    void *s = state_from(g, "0,0:L 1,0:L"); /* the third seat moves: an L beside wins */
    int mover = pips_to_move(g, s);
    assert_int_equal(mover, 2);
    for (uint64_t seed = 1; seed <= 4; seed++) {
        pips_agent *a = pips_agent_new(g, "alphabeta:depth=3,paranoid=1,shuffle=1", seed, &err);
        assert_non_null(a);
        assert_string_equal(pips_agent_spec(a), "alphabeta:depth=3,shuffle=1,paranoid=1");
        pips_move m;
        assert_true(agent_choose_unchecked(a, s, &m, &err));
        void *child = pips_state_new(g, &err);
        memcpy(child, s, g->def->state_size);
        g->def->apply(g, child, m);
        double r[PIPS_MAX_PLAYERS];
        assert_int_equal(pips_to_move(g, child), PIPS_OVER);
        g->def->returns(g, child, r);
        assert_true(r[mover] == 1.0);
        double v;
        assert_true(pips_agent_last_value(a, &v));
        assert_true(v > 0.9);
        pips_state_free(g, child);
        pips_agent_free(a);
    }
    pips_state_free(g, s);
    pips_game_free(g);
}

static void test_spec_normalised(void **unused)
{
    (void)unused;
    pips_game *g = ttd();
    static const struct {
        const char *spec, *want;
    } cases[] = {
        {"random", "random"},
        {"greedy", "greedy"},
        {"greedy:noise=0.25", "greedy:noise=0.25"},
        {"greedy:noise=0", "greedy"},
        {"easy", "mcts:iters=200"},
        {"medium", "greedy"},
        {"hard", "mcts:iters=1000"},
        {"max", "oracle:positions=1500000,table_mb=256,threads=1,fallback=mcts:iters=10000"},
        {"mcts:hard", "mcts:iters=10000"},
        {"mcts:max", "mcts:time=5,threads=2"},
        {"alphabeta:medium", "alphabeta:depth=4"},
        {"expectimax:easy", "expectimax:depth=1"},
        {"expectimax:depth=3,nodes=5000", "expectimax:depth=3,nodes=5000"},
        {"mcts", "mcts:iters=1000"},
        {"alphabeta", "alphabeta:depth=4"},
        {"mcts:time=1,threads=2", "mcts:time=1,threads=2"},
        {"alphabeta:time=0.5", "alphabeta:time=0.5"},
        {"alphabeta:depth=6,time=2", "alphabeta:depth=6,time=2"},
        {"alphabeta:shuffle=1,nodes=500000,depth=7", "alphabeta:depth=7,nodes=500000,shuffle=1"},
        {"alphabeta:nodes=1000", "alphabeta:nodes=1000"},
        {"alphabeta:depth=2,shuffle=1", "alphabeta:depth=2,shuffle=1"},
        {"alphabeta:shuffle=0", "alphabeta:depth=4"},
        {"mcts:iters=50,c=0.7,reuse=0", "mcts:iters=50,c=0.7,reuse=0"},
        {"mcts:iters=50,playout=uniform", "mcts:iters=50,playout=uniform"},
        {"mcts:iters=50,playout=policy", "mcts:iters=50"},
        {"mcts:iters=50,widen=0.5", "mcts:iters=50,widen=0.5"},
        {"mcts:iters=10,time=1", "mcts:iters=10,time=1"},
        {"mcts:iters=50,widen=0.5,widen_base=4", "mcts:iters=50,widen=0.5,widen_base=4"},
        {"mcts:iters=50,widen_base=4", "mcts:iters=50"},
        /* longer than a seat once held (63) and than the spec once held (127) */
        {"oracle:time=1,positions=100000,threads=1,fallback=mcts:iters=300",
         "oracle:time=1,positions=100000,table_mb=256,threads=1,fallback=mcts:iters=300"},
        {"mcts:iters=100,c=0.123456,time=86400,threads=2,widen=0.5,widen_base=3.25,nodes=1000000,"
         "reuse=0,order=eval,opp=search,oppiters=100000,exact=1000,pick=1,unknown=search,"
         "worst=0.125,ph=0.5,leaf=playout,playout=uniform",
         "mcts:iters=100,time=86400,threads=2,c=0.123456,widen=0.5,widen_base=3.25,nodes=1000000,"
         "reuse=0,order=eval,opp=search,oppiters=100000,exact=1000,pick=1,unknown=search,"
         "worst=0.125,ph=0.5,leaf=playout,playout=uniform"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        pips_error err;
        pips_agent *a = pips_agent_new(g, cases[i].spec, 1, &err);
        if (!a)
            fail_msg("spec '%s': %s", cases[i].spec, err.msg);
        assert_string_equal(pips_agent_spec(a), cases[i].want);
        pips_agent_free(a);
    }
    assert_string_equal(pips_agent_level_spec(g, "hard"), "mcts:iters=1000");
    assert_null(pips_agent_level_spec(g, "impossible"));
    /* IceFrogs' two-seat row picks alphabeta, which three seats cannot use:
     * three seats take the game's row for three seats (never a fallback) */
    pips_error err;
    const char *three[] = {"players=3"};
    pips_game *ice2 = pips_game_new("icefrogs", NULL, 0, NULL, &err);
    pips_game *ice3 = pips_game_new("icefrogs", three, 1, NULL, &err);
    assert_non_null(ice2);
    assert_non_null(ice3);
    pips_agent *h2 = pips_agent_new(ice2, "hard", 1, &err);
    pips_agent *h3 = pips_agent_new(ice3, "hard", 1, &err);
    assert_non_null(h2);
    assert_non_null(h3);
    assert_string_equal(pips_agent_spec(h2), "alphabeta:depth=4,shuffle=1");
    assert_string_equal(pips_agent_spec(h3), pips_agent_level_spec(ice3, "hard"));
    assert_null(strstr(pips_agent_spec(h3), "alphabeta:depth=4"));
    pips_agent_free(h2);
    pips_agent_free(h3);
    pips_game_free(ice2);
    pips_game_free(ice3);
    /* a game without its own rows takes the generic levels for its seats */
    const char *two[] = {"players=2"};
    pips_game *toy = toy_game_new(&toy_race_def, two, 1);
    assert_string_equal(pips_agent_level_spec(toy, "max"), "mcts:time=5,threads=2");
    pips_game_free(toy);
    toy = toy_game_new(&toy_race_def, NULL, 0);
    assert_string_equal(pips_agent_level_spec(toy, "medium"), "greedy");
    assert_non_null(strstr(pips_agent_level_spec(toy, "hard"), "opp="));
    pips_game_free(toy);
    pips_game_free(g);
}

/* Every game's own levels (def->levels) name agents its default
 * configuration accepts, so the lobby and `pips play` never offer a level
 * that fails; each bare level reads back as the game's spec. */
static void test_game_levels_resolve(void **st)
{
    (void)st;
    static const char *const names[] = {"easy", "medium", "hard", "max"};
    for (size_t i = 0; i < pips_game_count(); i++) {
        const pips_game_def *d = pips_game_def_at(i);
        pips_error err;
        pips_game *g = pips_game_new(d->name, NULL, 0, NULL, &err);
        if (!g)
            fail_msg("%s: %s", d->name, err.msg);
        for (int l = 0; l < 4; l++) {
            const char *want = pips_agent_level_spec(g, names[l]);
            assert_non_null(want);
            if (d->levels[l] && pips_num_players(g) == 2)
                assert_string_equal(want, d->levels[l]);
            pips_agent *a = pips_agent_new(g, names[l], 1, &err);
            if (!a)
                fail_msg("%s %s ('%s'): %s", d->name, names[l], want, err.msg);
            pips_agent *b = pips_agent_new(g, want, 1, &err);
            assert_non_null(b);
            assert_string_equal(pips_agent_spec(a), pips_agent_spec(b));
            pips_agent_free(a);
            pips_agent_free(b);
        }
        pips_game_free(g);
    }
}

/* alphabeta:shuffle=1 meets equal root moves in a seeded order: from the
 * IceFrogs start, whose moves tie exactly by symmetry, it picks different
 * moves across seeds, each of the best value, while without it every seed
 * picks the same move. */
static void test_alphabeta_shuffle(void **st)
{
    (void)st;
    pips_error err;
    pips_game *g = pips_game_new("icefrogs", NULL, 0, NULL, &err);
    assert_non_null(g);
    void *s = pips_state_new(g, &err);
    g->def->initial(g, s);
    pips_agent *ref = pips_agent_new(g, "alphabeta:depth=2", 1, &err);
    pips_move_eval ev[512];
    size_t n = agent_analyze_unchecked(ref, s, ev, 512, &err);
    assert_true(n > 1);
    pips_move first_plain = PIPS_MOVE_NONE, seen[32];
    size_t distinct = 0;
    for (uint64_t seed = 1; seed <= 16; seed++) {
        pips_agent *plain = pips_agent_new(g, "alphabeta:depth=2", seed, &err);
        pips_agent *mixed = pips_agent_new(g, "alphabeta:depth=2,shuffle=1", seed, &err);
        assert_non_null(plain);
        assert_non_null(mixed);
        pips_move mp, mm;
        assert_true(agent_choose_unchecked(plain, s, &mp, &err));
        assert_true(agent_choose_unchecked(mixed, s, &mm, &err));
        if (first_plain == PIPS_MOVE_NONE)
            first_plain = mp;
        assert_true(mp == first_plain);
        bool best = false, known = false;
        for (size_t i = 0; i < n; i++)
            if (ev[i].move == mm)
                best = ev[i].value >= ev[0].value - 1e-9;
        assert_true(best);
        for (size_t i = 0; i < distinct; i++)
            known |= seen[i] == mm;
        if (!known)
            seen[distinct++] = mm;
        pips_agent_free(plain);
        pips_agent_free(mixed);
    }
    assert_true(distinct >= 2);
    pips_agent_free(ref);
    pips_state_free(g, s);
    pips_game_free(g);
}

/* Makes `level` in game `name` with options, checks the spec starts with
 * `prefix` (NULL: does not start with "oracle") and that the agent picks a
 * legal move from the initial position. */
static void check_level_plays(const char *name, const char *const *opts, size_t n_opts,
                              const char *level, const char *prefix)
{
    pips_error err;
    pips_game *g = pips_game_new(name, opts, n_opts, NULL, &err);
    if (!g)
        fail_msg("%s: %s", name, err.msg);
    pips_agent *a = pips_agent_new(g, level, 7, &err);
    if (!a)
        fail_msg("%s %s: %s", name, level, err.msg);
    const char *spec = pips_agent_spec(a);
    if (prefix ? strncmp(spec, prefix, strlen(prefix)) != 0 : !strncmp(spec, "oracle", 6))
        fail_msg("%s %s resolved to '%s'", name, level, spec);
    void *s = pips_state_new(g, &err);
    g->def->initial(g, s);
    pips_move m;
    if (!agent_choose_unchecked(a, s, &m, &err))
        fail_msg("%s %s ('%s'): %s", name, level, spec, err.msg);
    assert_true(pips_check_move(g, s, m, &err));
    pips_state_free(g, s);
    pips_agent_free(a);
    pips_game_free(g);
}

/* `max` is the oracle (issue 14 item 5) where the solver serves the game:
 * two-player Tic Tac Doh! and Nimitz. Where it cannot (three seats, a
 * board too big to solve) the level still makes an agent that plays. */
static void test_max_is_oracle_where_it_applies(void **st)
{
    (void)st;
    static const char *const games[] = {"tictacdoh", "nimitz"};
    for (size_t i = 0; i < 2; i++) {
        pips_error err;
        pips_game *g = pips_game_new(games[i], NULL, 0, NULL, &err);
        assert_non_null(g);
        const char *want = pips_agent_level_spec(g, "max");
        if (strncmp(want, "oracle:", 7) != 0)
            fail_msg("%s max is '%s', not the oracle", games[i], want);
        pips_agent *a = pips_agent_new(g, "max", 1, &err);
        assert_non_null(a);
        assert_memory_equal(pips_agent_spec(a), "oracle:", 7);
        pips_agent_free(a);
        pips_game_free(g);
    }
    /* the oracle solves a small 2-player board and says so */
    static const char *const small[] = {"board=2x2", "colors=2"};
    check_level_plays("nimitz", small, 2, "max", "oracle:");
    /* a board beyond the solver (the volcano, 25 cells): every move is
     * played by the oracle's fallback */
    static const char *const volcano[] = {"board=volcano"};
    check_level_plays("nimitz", volcano, 1, "max", "oracle:");
    /* three seats (TTD-R8): the oracle is refused, and max is the game's
     * three-seat row (made, not run, here) */
    static const char *const ttd3[] = {"players=3"};
    check_level_plays("tictacdoh", ttd3, 1, "hard", NULL);
    pips_error err;
    pips_game *g3 = pips_game_new("tictacdoh", ttd3, 1, NULL, &err);
    assert_non_null(g3);
    pips_agent *m3 = pips_agent_new(g3, "max", 1, &err);
    if (!m3)
        fail_msg("tictacdoh players=3 max: %s", err.msg);
    assert_string_equal(pips_agent_spec(m3), pips_agent_level_spec(g3, "max"));
    assert_null(strstr(pips_agent_spec(m3), "oracle"));
    pips_agent_free(m3);
    assert_null(pips_agent_new(g3, "oracle", 1, &err));
    assert_int_equal(err.code, PIPS_ERR_UNSUPPORTED);
    pips_game_free(g3);
}

/* ---- legality and determinism ------------------------------------------------- */

/* Plays one game with `spec` in every seat (seat s seeded seed + s), every
 * decision checked legal; writes the moves to out and returns how many. */
static size_t play_game(const pips_game *g, const char *spec, uint64_t seed, pips_move *out,
                        size_t cap)
{
    pips_error err;
    int np = pips_num_players(g);
    pips_agent *agents[PIPS_MAX_PLAYERS];
    for (int s = 0; s < np; s++) {
        agents[s] = pips_agent_new(g, spec, seed + (uint64_t)s, &err);
        if (!agents[s])
            fail_msg("spec '%s': %s", spec, err.msg);
    }
    void *state = pips_state_new(g, &err);
    g->def->initial(g, state);
    pips_rng rng;
    pips_rng_seed(&rng, seed ^ 0xabcdef);
    size_t mm = pips_max_moves(g), n = 0;
    pips_move *buf = calloc(mm, sizeof *buf);
    double *prob = calloc(mm, sizeof *prob);
    for (;;) {
        int who = pips_to_move(g, state);
        if (who == PIPS_OVER)
            break;
        pips_move m;
        if (who == PIPS_CHANCE) {
            size_t k = g->def->chance_outcomes(g, state, buf, prob);
            m = buf[pips_sample_chance(&rng, prob, k)];
        } else {
            if (!agent_choose_unchecked(agents[who], state, &m, &err))
                fail_msg("spec '%s': choose failed: %s", spec, err.msg);
            if (!pips_check_move(g, state, m, &err))
                fail_msg("spec '%s' chose an illegal move: %s", spec, err.msg);
        }
        for (int s = 0; s < np; s++)
            agent_observe_unchecked(agents[s], state, m);
        g->def->apply(g, state, m);
        assert_true(n < cap);
        out[n++] = m;
    }
    for (int s = 0; s < np; s++)
        pips_agent_free(agents[s]);
    free(buf);
    free(prob);
    pips_state_free(g, state);
    return n;
}

static void check_legal_and_deterministic(const pips_game *g, const char *const *specs,
                                          size_t n_specs, int games)
{
    pips_move a[512], b[512];
    for (size_t i = 0; i < n_specs; i++)
        for (int k = 0; k < games; k++) {
            size_t na = play_game(g, specs[i], 100 + (uint64_t)k, a, 512);
            size_t nb = play_game(g, specs[i], 100 + (uint64_t)k, b, 512);
            if (na != nb || memcmp(a, b, na * sizeof *a) != 0)
                fail_msg("spec '%s' on %s: two runs with seed %d differ", specs[i],
                         g->def->name, 100 + k);
        }
}

/* TTD-R2/R3 legality is the game's; here every agent must keep to it. */
static void test_legal_deterministic_ttd(void **unused)
{
    (void)unused;
    pips_game *g = ttd();
    static const char *const specs[] = {
        "random",          "greedy",          "alphabeta:depth=3",         "expectimax:depth=1",
        "mcts:iters=200",  "mcts:iters=200,threads=2", "mcts:iters=100,reuse=0", "easy",
    };
    check_legal_and_deterministic(g, specs, sizeof specs / sizeof specs[0], 3);
    pips_game_free(g);
}

static void test_legal_deterministic_chance_nplayer(void **unused)
{
    (void)unused;
    static const char *const specs[] = {"random", "greedy", "expectimax:depth=2",
                                        "mcts:iters=200", "mcts:iters=200,threads=2", "hard"};
    const char *three[] = {"players=3", "mode=enum"};
    pips_game *g = toy_game_new(&toy_race_def, three, 2);
    assert_non_null(g);
    check_legal_and_deterministic(g, specs, sizeof specs / sizeof specs[0], 3);
    pips_game_free(g);
    /* non-enumerable moves: candidates drawn per node */
    const char *free2[] = {"players=2", "mode=free"};
    g = toy_game_new(&toy_race_free_def, free2, 2);
    assert_non_null(g);
    check_legal_and_deterministic(g, specs, sizeof specs / sizeof specs[0], 3);
    pips_game_free(g);
}

/* ---- finding wins ----------------------------------------------------------------- */

/* An exact solver for tests: the value (+1 win, 0 draw, -1 loss) for the
 * seat to move, by plain negamax with a cutoff at the first win. */
static int solve_value(const pips_game *g, const void *state)
{
    int who = pips_to_move(g, state);
    if (who == PIPS_OVER)
        return 99; /* the caller reads the returns */
    pips_move moves[128];
    assert_true(pips_max_moves(g) <= 128);
    size_t n = g->def->legal_moves(g, state, moves);
    unsigned char child[512];
    assert_true(g->def->state_size <= sizeof child);
    int best = -2;
    for (size_t i = 0; i < n && best < 1; i++) {
        memcpy(child, state, g->def->state_size);
        g->def->apply(g, child, moves[i]);
        int v;
        if (pips_to_move(g, child) == PIPS_OVER) {
            double r[PIPS_MAX_PLAYERS];
            g->def->returns(g, child, r);
            v = r[who] > r[1 - who] ? 1 : r[who] < r[1 - who] ? -1 : 0;
        } else {
            int nv = solve_value(g, child);
            v = pips_to_move(g, child) == who ? nv : -nv;
        }
        if (v > best)
            best = v;
    }
    return best;
}

static int move_value(const pips_game *g, const void *state, pips_move m)
{
    unsigned char child[512];
    int who = pips_to_move(g, state);
    memcpy(child, state, g->def->state_size);
    g->def->apply(g, child, m);
    if (pips_to_move(g, child) == PIPS_OVER) {
        double r[PIPS_MAX_PLAYERS];
        g->def->returns(g, child, r);
        return r[who] > r[1 - who] ? 1 : r[who] < r[1 - who] ? -1 : 0;
    }
    int v = solve_value(g, child);
    return pips_to_move(g, child) == who ? v : -v;
}

/* True when the mover of state (a two-player game) can force a win within
 * `plies` plies (odd): some move wins at once, or leaves a position where
 * every reply is followed by a forced win within plies - 2. */
static bool wins_within(const pips_game *g, const void *state, int plies)
{
    int who = pips_to_move(g, state);
    pips_move moves[128], replies[128];
    unsigned char child[512], grand[512];
    size_t ss = g->def->state_size;
    size_t n = g->def->legal_moves(g, state, moves);
    for (size_t i = 0; i < n; i++) {
        memcpy(child, state, ss);
        g->def->apply(g, child, moves[i]);
        if (pips_to_move(g, child) == PIPS_OVER) {
            double r[PIPS_MAX_PLAYERS];
            g->def->returns(g, child, r);
            if (r[who] > r[1 - who])
                return true;
            continue;
        }
        if (plies < 3)
            continue;
        size_t k = g->def->legal_moves(g, child, replies);
        bool all = k > 0;
        for (size_t j = 0; j < k && all; j++) {
            memcpy(grand, child, ss);
            g->def->apply(g, grand, replies[j]);
            if (pips_to_move(g, grand) == PIPS_OVER) {
                double r[PIPS_MAX_PLAYERS];
                g->def->returns(g, grand, r);
                all = r[who] > r[1 - who];
            } else {
                all = wins_within(g, grand, plies - 2);
            }
        }
        if (all)
            return true;
    }
    return false;
}

static const char *const searchers[] = {"alphabeta:depth=5", "alphabeta:time=0.5",
                                        "mcts:iters=20000", "mcts:iters=20000,threads=2",
                                        "mcts:iters=20000,widen=0.5", "expectimax:depth=3"};

/* TTD-R5: a line of three cells counting as one size wins at once. */
static void test_win_in_one(void **unused)
{
    (void)unused;
    pips_game *g = ttd();
    void *s = state_from(g, "0,0:L 1,0:L"); /* X to move: L at -1,0 or 2,0 wins */
    for (size_t i = 0; i < sizeof searchers / sizeof searchers[0]; i++) {
        pips_error err;
        pips_agent *a = pips_agent_new(g, searchers[i], 7, &err);
        assert_non_null(a);
        pips_move m;
        assert_true(agent_choose_unchecked(a, s, &m, &err));
        if (move_value(g, s, m) != 1)
            fail_msg("%s missed the win in one", searchers[i]);
        double v;
        assert_true(pips_agent_last_value(a, &v));
        assert_true(v > 0.9);
        pips_agent_free(a);
    }
    pips_state_free(g, s);
    pips_game_free(g);
}

/* greedy:noise=P plays a uniformly random move with chance P, greedy's
 * otherwise: on a win in one (2 winning moves of n), noise=0 always wins,
 * noise=1 wins about 2/n of the time and spreads over many moves, and
 * noise=0.5 wins about 1/2 + 1/2 x 2/n; the same seed repeats its move. */
static void test_greedy_noise(void **unused)
{
    (void)unused;
    pips_game *g = ttd();
    void *s = state_from(g, "0,0:L 1,0:L");
    pips_error err;
    pips_move *moves = calloc(pips_max_moves(g), sizeof *moves);
    bool *hit = calloc(pips_max_moves(g), sizeof *hit);
    size_t n = agent_search_moves(g, s, 0, moves, NULL);
    assert_true(n > 10);
    unsigned char child[512];
    const double noises[] = {0, 1, 0.5};
    for (size_t k = 0; k < 3; k++) {
        char spec[64];
        snprintf(spec, sizeof spec, "greedy:noise=%g", noises[k]);
        int wins = 0, seen = 0;
        memset(hit, 0, pips_max_moves(g) * sizeof *hit);
        const int games = 400;
        for (int seed = 1; seed <= games; seed++) {
            pips_agent *a = pips_agent_new(g, spec, (uint64_t)seed, &err);
            assert_non_null(a);
            pips_move m, again;
            assert_true(agent_choose_unchecked(a, s, &m, &err));
            pips_agent_free(a);
            a = pips_agent_new(g, spec, (uint64_t)seed, &err);
            assert_true(agent_choose_unchecked(a, s, &again, &err));
            pips_agent_free(a);
            assert_true(m == again);
            memcpy(child, s, g->def->state_size);
            g->def->apply(g, child, m);
            wins += pips_to_move(g, child) == PIPS_OVER; /* only a win ends it here */
            for (size_t i = 0; i < n; i++)
                if (moves[i] == m && !hit[i]) {
                    hit[i] = true;
                    seen++;
                }
        }
        double expect = (1 - noises[k]) + noises[k] * 2.0 / (double)n;
        double sd = sqrt(expect * (1 - expect) / games);
        if (fabs((double)wins / games - expect) > 4 * sd + 1e-9)
            fail_msg("%s won %d of %d, expected about %.3f", spec, wins, games, expect);
        if (noises[k] == 0)
            assert_int_equal(seen, 2);
        else
            assert_true(seen > (int)n / 2);
    }
    free(moves);
    free(hit);
    pips_state_free(g, s);
    pips_game_free(g);
}

/* Forced wins that take three plies (TTD-R5, R7): positions from seeded
 * random games where the mover can force a win within three plies but not
 * at once; every searcher must pick a move the exact solver rates a win. */
static void test_forced_win_in_three(void **unused)
{
    (void)unused;
    pips_game *g = ttd();
    pips_move moves[128];
    unsigned char state[512], save[512];
    size_t ss = g->def->state_size;
    int found = 0;
    for (uint64_t seed = 1; seed < 400 && found < 4; seed++) {
        pips_rng rng;
        pips_rng_seed(&rng, seed);
        g->def->initial(g, state);
        for (int ply = 0; ply < 15 && pips_to_move(g, state) >= 0; ply++) {
            if (ply >= 8) {
                size_t n = g->def->legal_moves(g, state, moves);
                bool immediate = false;
                for (size_t i = 0; i < n && !immediate; i++) {
                    memcpy(save, state, ss);
                    g->def->apply(g, save, moves[i]);
                    immediate = pips_to_move(g, save) == PIPS_OVER &&
                                move_value(g, state, moves[i]) == 1;
                }
                if (!immediate && wins_within(g, state, 3)) {
                    found++;
                    for (size_t k = 0; k < sizeof searchers / sizeof searchers[0]; k++) {
                        pips_error err;
                        pips_agent *a = pips_agent_new(g, searchers[k], seed, &err);
                        pips_move m;
                        assert_true(agent_choose_unchecked(a, state, &m, &err));
                        if (move_value(g, state, m) != 1) {
                            pips_str t;
                            pips_str_init(&t, NULL);
                            g->def->state_to_text(g, state, &t);
                            fail_msg("%s misses the forced win in '%s'", searchers[k],
                                     pips_str_cstr(&t));
                        }
                        pips_agent_free(a);
                    }
                    break;
                }
            }
            size_t n = g->def->legal_moves(g, state, moves);
            g->def->apply(g, state, moves[pips_rng_below(&rng, n)]);
        }
    }
    assert_true(found >= 3);
    pips_game_free(g);
}

/* Chance: at 8 on the track a step of 2 or 3 wins whatever the bonus, a step
 * of 1 only with the bonus (and the next seat, at 9, then wins for sure);
 * every agent sees it through the chance node. */
static void test_chance_choice(void **unused)
{
    (void)unused;
    const char *three[] = {"players=3", "mode=enum"};
    pips_game *g = toy_game_new(&toy_race_def, three, 2);
    void *s = state_from(g, "0,8,9,0;1;0;0;0");
    static const char *const specs[] = {"greedy", "expectimax:depth=1", "expectimax:depth=2",
                                        "mcts:iters=2000", "mcts:iters=2000,threads=2"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        pips_error err;
        pips_agent *a = pips_agent_new(g, specs[i], 3, &err);
        assert_non_null(a);
        pips_move m;
        assert_true(agent_choose_unchecked(a, s, &m, &err));
        if (m < 2000)
            fail_msg("%s chose step %llu at 8", specs[i], (unsigned long long)(m / 1000));
        pips_move_eval ev[4];
        size_t n = agent_analyze_unchecked(a, s, ev, 4, &err);
        assert_int_equal(n, 3);
        assert_true(ev[0].value > 0.95 && ev[0].move >= 2000);
        for (size_t k = 1; k < n; k++)
            assert_true(ev[k - 1].value >= ev[k].value || ev[k - 1].visits >= ev[k].visits);
        pips_agent_free(a);
    }
    pips_state_free(g, s);
    pips_game_free(g);
}

/* Analysis ranks every legal move with a value in [0, 1]. */
static void test_analyze_ranks_all(void **unused)
{
    (void)unused;
    pips_game *g = ttd();
    void *s = state_from(g, "0,0:L 1,0:M 0,1:S");
    pips_move moves[128];
    size_t legal = g->def->legal_moves(g, s, moves);
    static const char *const specs[] = {"greedy", "alphabeta:depth=3", "expectimax:depth=1",
                                        "mcts:iters=3000"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        pips_error err;
        pips_agent *a = pips_agent_new(g, specs[i], 5, &err);
        pips_move_eval ev[128];
        size_t n = agent_analyze_unchecked(a, s, ev, 128, &err);
        assert_int_equal(n, legal);
        for (size_t k = 0; k < n; k++) {
            assert_true(ev[k].value >= 0 && ev[k].value <= 1);
            assert_true(pips_check_move(g, s, ev[k].move, &err));
        }
        pips_agent_free(a);
    }
    /* analysis at a finished game is an error, not a crash */
    void *over = state_from(g, "0,0:L 1,0:L 2,0:L");
    pips_error err;
    pips_agent *a = pips_agent_new(g, "mcts:iters=10", 1, &err);
    pips_move_eval ev[4];
    assert_int_equal(agent_analyze_unchecked(a, over, ev, 4, &err), 0);
    assert_non_null(strstr(err.msg, "game is over"));
    pips_agent_free(a);
    pips_state_free(g, over);
    pips_state_free(g, s);
    pips_game_free(g);
}

/* True when the seat to move after m has a reply that wins at once. */
static bool loses_at_once(const pips_game *g, const void *s, pips_move m)
{
    pips_error err;
    void *child = pips_state_new(g, &err), *grand = pips_state_new(g, &err);
    memcpy(child, s, g->def->state_size);
    g->def->apply(g, child, m);
    int opp = pips_to_move(g, child);
    bool lost = false;
    if (opp >= 0) {
        pips_move replies[128];
        size_t n = g->def->legal_moves(g, child, replies);
        for (size_t i = 0; i < n && !lost; i++) {
            memcpy(grand, child, g->def->state_size);
            g->def->apply(g, grand, replies[i]);
            double r[PIPS_MAX_PLAYERS];
            if (pips_to_move(g, grand) == PIPS_OVER) {
                g->def->returns(g, grand, r);
                lost = r[opp] == 1;
            }
        }
    }
    pips_state_free(g, child);
    pips_state_free(g, grand);
    return lost;
}

/* Analysis lists moves by value and shows proven results as such: a move
 * after which the opponent wins at once is a proven loss (not a heuristic
 * 0.14), an immediate win a proven win, at every depth that sees them; MCTS
 * lists by value too, with its visits beside. */
static void test_analyze_proven_and_sorted(void **unused)
{
    (void)unused;
    pips_game *g = ttd();
    void *s = state_from(g, "0,0:L 1,0:L");
    static const char *const specs[] = {"alphabeta:depth=2", "alphabeta:depth=6",
                                        "alphabeta:depth=4"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        pips_error err;
        pips_agent *a = pips_agent_new(g, specs[i], 5, &err);
        pips_move_eval ev[128];
        size_t n = agent_analyze_unchecked(a, s, ev, 128, &err);
        assert_true(n > 10);
        assert_true(ev[0].proven && ev[0].value == 1);
        char text[32];
        pips_move_eval_text(&ev[0], 2, text, sizeof text);
        assert_string_equal(text, "win");
        size_t losses = 0;
        for (size_t k = 0; k < n; k++) {
            if (k > 0)
                assert_true(ev[k - 1].value >= ev[k].value);
            if (loses_at_once(g, s, ev[k].move)) {
                losses++;
                if (!ev[k].proven || ev[k].value != 0)
                    fail_msg("%s: a move losing at once valued %.4f (proven %d)", specs[i],
                             ev[k].value, ev[k].proven);
                pips_move_eval_text(&ev[k], 2, text, sizeof text);
                assert_string_equal(text, "loss");
            }
        }
        assert_true(losses > 0);
        pips_agent_free(a);
    }
    /* MCTS without a proven root: values non-increasing, visits sum to the
     * budget (reuse cannot add any in a fresh agent) */
    void *open = state_from(g, "0,0:L");
    pips_error err;
    pips_agent *m = pips_agent_new(g, "mcts:iters=3000", 5, &err);
    pips_move_eval ev[128];
    size_t n = agent_analyze_unchecked(m, open, ev, 128, &err);
    uint64_t total = 0;
    for (size_t k = 0; k < n; k++) {
        total += ev[k].visits;
        if (k > 0)
            assert_true(ev[k - 1].value >= ev[k].value);
    }
    assert_true(total == 3000);
    pips_agent_free(m);
    pips_state_free(g, open);
    pips_state_free(g, s);
    pips_game_free(g);
}

/* A proven draw: a position a few plies from the end where alphabeta sees to
 * the end of every line, checked against the exact solver. */
static void test_analyze_proven_draw(void **unused)
{
    (void)unused;
    pips_game *g = ttd();
    pips_error err;
    bool seen_draw = false;
    for (uint64_t seed = 1; seed < 200 && !seen_draw; seed++) {
        /* a random game stopped 5 plies before its end */
        void *s = pips_state_new(g, &err);
        g->def->initial(g, s);
        pips_rng rng;
        pips_rng_seed(&rng, seed);
        pips_move line[32], moves[128];
        size_t plies = 0;
        void *walk = pips_state_new(g, &err);
        memcpy(walk, s, g->def->state_size);
        while (pips_to_move(g, walk) >= 0 && plies < 32) {
            size_t k = g->def->legal_moves(g, walk, moves);
            line[plies] = moves[pips_rng_below(&rng, k)];
            g->def->apply(g, walk, line[plies++]);
        }
        for (size_t i = 0; i + 5 < plies; i++)
            g->def->apply(g, s, line[i]);
        pips_agent *a = pips_agent_new(g, "alphabeta:depth=8", 1, &err);
        pips_move_eval ev[128];
        size_t n = pips_to_move(g, s) >= 0 ? agent_analyze_unchecked(a, s, ev, 128, &err) : 0;
        for (size_t k = 0; k < n; k++) {
            if (!ev[k].proven || ev[k].value != 0.5)
                continue;
            memcpy(walk, s, g->def->state_size);
            g->def->apply(g, walk, ev[k].move);
            pips_solve_result res;
            assert_true(solve_from_unchecked(g, walk, false, NULL, &res, &err));
            assert_int_equal(res.value, PIPS_DRAW);
            char text[32];
            pips_move_eval_text(&ev[k], 2, text, sizeof text);
            assert_string_equal(text, "draw");
            seen_draw = true;
        }
        pips_agent_free(a);
        pips_state_free(g, walk);
        pips_state_free(g, s);
    }
    assert_true(seen_draw);
    pips_game_free(g);
}

/* Tree reuse: after observing its own move and the reply, the next search
 * starts from the kept subtree, so its root holds more visits than one
 * search's budget; with reuse=0 it holds exactly the budget (no proven root
 * this early). */
static void test_mcts_tree_reuse(void **unused)
{
    (void)unused;
    pips_game *g = ttd();
    for (int reuse = 0; reuse <= 1; reuse++) {
        pips_error err;
        pips_agent *a = pips_agent_new(g, reuse ? "mcts:iters=4000" : "mcts:iters=4000,reuse=0",
                                       9, &err);
        void *s = state_from(g, "-");
        pips_move m;
        assert_true(agent_choose_unchecked(a, s, &m, &err));
        agent_observe_unchecked(a, s, m);
        g->def->apply(g, s, m);
        pips_move moves[128];
        assert_true(g->def->legal_moves(g, s, moves) > 0);
        agent_observe_unchecked(a, s, moves[0]);
        g->def->apply(g, s, moves[0]);
        pips_move_eval ev[128];
        size_t n = agent_analyze_unchecked(a, s, ev, 128, &err);
        uint64_t total = 0;
        for (size_t i = 0; i < n; i++)
            total += ev[i].visits;
        if (reuse)
            assert_true(total > 4000);
        else
            assert_true(total == 4000);
        pips_state_free(g, s);
        pips_agent_free(a);
    }
    pips_game_free(g);
}

/* Nodes searched by expectimax:depth=D from s (the analysis's visits). */
static uint64_t expectimax_nodes(const pips_game *g, const void *s, const char *spec,
                                 pips_move_eval *ev, size_t *n)
{
    pips_error err;
    pips_agent *a = pips_agent_new(g, spec, 1, &err);
    if (!a)
        fail_msg("spec '%s': %s", spec, err.msg);
    *n = agent_analyze_unchecked(a, s, ev, 128, &err);
    assert_true(*n > 0);
    uint64_t total = 0;
    for (size_t i = 0; i < *n; i++)
        total += ev[i].visits;
    pips_agent_free(a);
    return total;
}

/* Two-seat expectimax prunes (alpha-beta and Star1 on seat 0's score):
 * on Ziggurat positions reached by random play, its analysis gives every
 * move exactly the full search's value, its choice has the full search's
 * best value, and it visits fewer nodes. */
static void test_expectimax_pruning_is_exact(void **unused)
{
    (void)unused;
    pips_error err;
    static const char *const kv[] = {"players=2"};
    pips_game *g = pips_game_new("ziggurat", kv, 1, NULL, &err);
    assert_non_null(g);
    pips_agent *full = pips_agent_new(g, "expectimax:depth=2,prune=0", 1, &err);
    pips_agent *cut = pips_agent_new(g, "expectimax:depth=2", 1, &err);
    assert_non_null(full);
    assert_non_null(cut);
    assert_string_equal(pips_agent_spec(full), "expectimax:depth=2,prune=0");
    size_t cap = pips_max_moves(g);
    pips_move *buf = calloc(cap, sizeof *buf);
    pips_move_eval *ev_full = calloc(cap, sizeof *ev_full), *ev_cut = calloc(cap, sizeof *ev_cut);
    void *s = pips_state_new(g, &err);
    pips_rng rng;
    pips_rng_seed(&rng, 11);
    uint64_t nodes_full = 0, nodes_cut = 0;
    int positions = 0;
    while (positions < 12) {
        g->def->initial(g, s);
        int plies = 5 + (int)pips_rng_below(&rng, 50);
        for (int i = 0; (i < plies || pips_to_move(g, s) == PIPS_CHANCE) &&
                        pips_to_move(g, s) != PIPS_OVER;
             i++) {
            size_t n = pips_node_moves(g, s, &rng, buf, NULL);
            g->def->apply(g, s, buf[pips_rng_below(&rng, n)]);
        }
        if (pips_to_move(g, s) < 0)
            continue;
        positions++;
        size_t n = agent_analyze_unchecked(full, s, ev_full, cap, &err);
        assert_int_equal(agent_analyze_unchecked(cut, s, ev_cut, cap, &err), n);
        for (size_t i = 0; i < n; i++) {
            size_t j = 0;
            while (j < n && ev_cut[j].move != ev_full[i].move)
                j++;
            assert_true(j < n);
            assert_true(fabs(ev_cut[j].value - ev_full[i].value) < 1e-9);
            nodes_full += ev_full[i].visits;
            nodes_cut += ev_cut[j].visits;
        }
        pips_move m;
        assert_true(agent_choose_unchecked(cut, s, &m, &err));
        for (size_t i = 0; i < n; i++)
            if (ev_full[i].move == m)
                assert_true(fabs(ev_full[i].value - ev_full[0].value) < 1e-9);
    }
    assert_true(nodes_cut < nodes_full);
    free(buf);
    free(ev_full);
    free(ev_cut);
    pips_state_free(g, s);
    pips_agent_free(full);
    pips_agent_free(cut);
    pips_game_free(g);
}

/* expectimax's node cap: a cap between the sizes of the depth-2 and depth-3
 * searches gives exactly the depth-2 analysis (depth 3 is abandoned), and a
 * cap of the depth-3 size itself lets depth 3 finish. Without pruning, so
 * the sizes are the full trees'. */
static void test_expectimax_node_cap(void **unused)
{
    (void)unused;
    pips_game *g = ttd();
    void *s = state_from(g, "0,0:L 1,0:M");
    pips_move_eval d2[128], d3[128], capped[128];
    size_t n2, n3, nc;
    uint64_t nodes2 = expectimax_nodes(g, s, "expectimax:depth=2,prune=0", d2, &n2);
    uint64_t nodes3 = expectimax_nodes(g, s, "expectimax:depth=3,prune=0", d3, &n3);
    assert_true(nodes2 >= 1000 && nodes3 > nodes2 + 2);
    char spec[64];
    snprintf(spec, sizeof spec, "expectimax:depth=6,nodes=%llu,prune=0",
             (unsigned long long)((nodes2 + nodes3) / 2));
    expectimax_nodes(g, s, spec, capped, &nc);
    assert_int_equal(nc, n2);
    for (size_t i = 0; i < n2; i++) {
        assert_true(capped[i].move == d2[i].move);
        assert_true(capped[i].value == d2[i].value);
    }
    snprintf(spec, sizeof spec, "expectimax:depth=3,nodes=%llu,prune=0", (unsigned long long)nodes3);
    expectimax_nodes(g, s, spec, capped, &nc);
    assert_int_equal(nc, n3);
    for (size_t i = 0; i < n3; i++) {
        assert_true(capped[i].move == d3[i].move);
        assert_true(capped[i].value == d3[i].value);
    }
    pips_state_free(g, s);
    pips_game_free(g);
}

/* An alphabeta analysis from s by a fresh agent: its root moves in ev, and
 * the depth finished and nodes spent, read from its note. */
static size_t alphabeta_analysis(const pips_game *g, const void *s, const char *spec,
                                 pips_move_eval *ev, int *depth, unsigned long long *nodes)
{
    pips_error err;
    pips_agent *a = pips_agent_new(g, spec, 1, &err);
    if (!a)
        fail_msg("spec '%s': %s", spec, err.msg);
    size_t n = agent_analyze_unchecked(a, s, ev, 128, &err);
    assert_true(n > 0);
    if (sscanf(pips_agent_note(a), "depth %d finished, %llu nodes", depth, nodes) != 2)
        fail_msg("spec '%s': note '%s'", spec, pips_agent_note(a));
    pips_agent_free(a);
    return n;
}

/* alphabeta's node cap counts the whole deepening: a cap between the
 * totals of depth=2 and depth=3 gives exactly the depth-2 analysis (depth 3
 * is abandoned one node past the cap), and the depth-3 total itself lets
 * depth 3 finish and abandons depth 4 at once. */
static void test_alphabeta_node_cap(void **unused)
{
    (void)unused;
    pips_game *g = ttd();
    void *s = state_from(g, "0,0:L 1,0:M");
    pips_move_eval d2[128], d3[128], capped[128];
    int depth;
    unsigned long long nodes2, nodes3, spent;
    size_t n2 = alphabeta_analysis(g, s, "alphabeta:depth=2", d2, &depth, &nodes2);
    assert_int_equal(depth, 2);
    size_t n3 = alphabeta_analysis(g, s, "alphabeta:depth=3", d3, &depth, &nodes3);
    assert_int_equal(depth, 3);
    assert_true(nodes2 >= 100 && nodes3 > nodes2 + 2);
    char spec[64];
    unsigned long long cap = (nodes2 + nodes3) / 2;
    snprintf(spec, sizeof spec, "alphabeta:depth=6,nodes=%llu", cap);
    assert_int_equal(alphabeta_analysis(g, s, spec, capped, &depth, &spent), n2);
    assert_int_equal(depth, 2);
    assert_true(spent == cap + 1);
    for (size_t i = 0; i < n2; i++) {
        assert_true(capped[i].move == d2[i].move);
        assert_true(capped[i].value == d2[i].value);
    }
    snprintf(spec, sizeof spec, "alphabeta:nodes=%llu", nodes3);
    assert_int_equal(alphabeta_analysis(g, s, spec, capped, &depth, &spent), n3);
    assert_int_equal(depth, 3);
    assert_true(spent == nodes3 + 1);
    for (size_t i = 0; i < n3; i++) {
        assert_true(capped[i].move == d3[i].move);
        assert_true(capped[i].value == d3[i].value);
    }
    /* depth 1 always finishes, whatever the cap */
    size_t n1 = alphabeta_analysis(g, s, "alphabeta:nodes=1", capped, &depth, &spent);
    assert_true(n1 == n2 && depth == 1);
    pips_state_free(g, s);
    pips_game_free(g);
}

/* A node-capped alphabeta (nodes=, no time) is a function of its seed: two
 * agents of the same spec and seed choose the same move at every position
 * of a whole game, table carried from move to move included, and a
 * caller's time cap that does not bind changes none of them. */
static void test_alphabeta_node_cap_is_deterministic(void **unused)
{
    (void)unused;
    pips_game *g = ttd();
    pips_error err;
    const char *spec = "alphabeta:depth=8,nodes=20000,shuffle=1";
    pips_agent *a = pips_agent_new(g, spec, 7, &err), *b = pips_agent_new(g, spec, 7, &err);
    pips_agent *capped = pips_agent_new(g, spec, 7, &err);
    pips_agent *other = pips_agent_new(g, "mcts:iters=300", 3, &err);
    assert_true(a && b && capped && other);
    assert_string_equal(pips_agent_spec(a), spec);
    pips_agent_set_time_cap(capped, 3600);
    void *s = pips_state_new(g, &err);
    g->def->initial(g, s);
    int moves = 0;
    while (pips_to_move(g, s) >= 0) {
        pips_move m, mb, mc;
        if (pips_to_move(g, s) == 0) {
            assert_true(agent_choose_unchecked(a, s, &m, &err));
            assert_true(agent_choose_unchecked(b, s, &mb, &err));
            assert_true(agent_choose_unchecked(capped, s, &mc, &err));
            assert_true(m == mb && m == mc);
            assert_string_equal(pips_agent_note(a), pips_agent_note(b));
            moves++;
        } else {
            assert_true(agent_choose_unchecked(other, s, &m, &err));
        }
        g->def->apply(g, s, m);
    }
    assert_true(moves >= 3);
    pips_state_free(g, s);
    pips_agent_free(a);
    pips_agent_free(b);
    pips_agent_free(capped);
    pips_agent_free(other);
    pips_game_free(g);
}

/* mcts must beat random clearly: 40 games, seats alternating. */
static void test_mcts_beats_random(void **unused)
{
    (void)unused;
    pips_game *g = ttd();
    double score = 0;
    int games = 40;
    for (int k = 0; k < games; k++) {
        pips_error err;
        int mseat = k % 2;
        pips_agent *ag[2];
        ag[mseat] = pips_agent_new(g, "mcts:iters=500", 1000 + (uint64_t)k, &err);
        ag[1 - mseat] = pips_agent_new(g, "random", 2000 + (uint64_t)k, &err);
        void *s = pips_state_new(g, &err);
        g->def->initial(g, s);
        while (pips_to_move(g, s) >= 0) {
            pips_move m;
            int who = pips_to_move(g, s);
            assert_true(agent_choose_unchecked(ag[who], s, &m, &err));
            agent_observe_unchecked(ag[0], s, m);
            agent_observe_unchecked(ag[1], s, m);
            g->def->apply(g, s, m);
        }
        double r[2];
        g->def->returns(g, s, r);
        score += r[mseat];
        pips_state_free(g, s);
        pips_agent_free(ag[0]);
        pips_agent_free(ag[1]);
    }
    pips_game_free(g);
    if (score < 0.8 * games)
        fail_msg("mcts scored only %.1f of %d against random", score, games);
}

/* Processor time of the whole process, every thread included: unlike wall
 * time it does not grow when other work shares the machine. */
static double process_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The caller's time cap (pips_agent_set_time_cap, the server's clocks)
 * binds every kind and every level, whatever its own budget: each kind at
 * its strongest parameters ("KIND:max", five seconds where it has levels)
 * and each bare level, in every game at two and three seats, moves within a
 * 0.1 s cap. The tight bound is on processor time, which a loaded machine
 * does not stretch as it does wall time: 0.6 s is three times what two
 * threads can use in 0.1 s and far below the uncapped budgets. Wall time is
 * bounded only loosely (40 times the cap) so that the test holds on a loaded
 * machine and still fails without the cap. */
static void test_time_cap_binds_every_kind(void **unused)
{
    (void)unused;
    static const char *const games[] = {"tictacdoh", "nimitz", "icefrogs", "ziggurat", "noname"};
    static const char *const levels[] = {"easy", "medium", "hard", "max"};
    size_t tried = 0;
    for (size_t gi = 0; gi < sizeof games / sizeof games[0]; gi++)
        for (int players = 2; players <= 3; players++) {
            char opt[32];
            snprintf(opt, sizeof opt, "players=%d", players);
            const char *opts[] = {opt};
            pips_error err;
            pips_game *g = pips_game_new(games[gi], opts, 1, NULL, &err);
            if (!g)
                fail_msg("%s: %s", opt, err.msg);
            void *s = pips_state_new(g, &err);
            pips_rng rng;
            pips_rng_seed(&rng, 7);
            pips_move *moves = calloc(pips_max_moves(g), sizeof *moves);
            while (pips_to_move(g, s) == PIPS_CHANCE) { /* the opening roll */
                size_t n = pips_node_moves(g, s, &rng, moves, NULL);
                assert_true(n > 0);
                g->def->apply(g, s, moves[0]);
            }
            for (size_t k = 0; k < pips_agent_kind_count() + 4; k++) {
                char spec[64];
                if (k < pips_agent_kind_count())
                    snprintf(spec, sizeof spec, "%s:max", pips_agent_kind_at(k)->name);
                else
                    snprintf(spec, sizeof spec, "%s", levels[k - pips_agent_kind_count()]);
                pips_agent *a = pips_agent_new(g, spec, 3, &err);
                if (!a && k < pips_agent_kind_count()) /* a kind without levels: its defaults */
                    a = pips_agent_new(g, pips_agent_kind_at(k)->name, 3, &err);
                if (!a) { /* e.g. alphabeta with dice, the oracle at three seats */
                    assert_true(err.code == PIPS_ERR_UNSUPPORTED || err.code == PIPS_ERR_ARG);
                    continue;
                }
                pips_agent_set_time_cap(a, 0.1);
                pips_move m;
                double wall0 = pips_now(), cpu0 = process_cpu_seconds();
                if (!agent_choose_unchecked(a, s, &m, &err))
                    fail_msg("%s %s %s: %s", games[gi], opt, spec, err.msg);
                double wall = pips_now() - wall0, cpu = process_cpu_seconds() - cpu0;
                /* The cap is wall time, so a loaded machine only lowers the
                 * processor time an obedient agent gets: 0.1 s on each of at
                 * most two threads, with room for a slow (sanitized) build.
                 * An agent ignoring the cap spends seconds of processor time
                 * on an iteration budget, and 4.5 s of wall time on the
                 * time=5 of KIND:max however little processor it gets. */
                if (cpu > 0.6 || wall > 4.0)
                    fail_msg("%s %s %s used %.2f s of processor time (%.2f s wall) under a 0.1 s cap",
                             games[gi], opt, spec, cpu, wall);
                assert_true(pips_check_move(g, s, m, &err));
                tried++;
                pips_agent_free(a);
            }
            free(moves);
            pips_state_free(g, s);
            pips_game_free(g);
        }
    assert_true(tried >= 60);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_specs),
        cmocka_unit_test(test_spec_normalised),
        cmocka_unit_test(test_game_levels_resolve),
        cmocka_unit_test(test_max_is_oracle_where_it_applies),
        cmocka_unit_test(test_alphabeta_shuffle),
        cmocka_unit_test(test_legal_deterministic_ttd),
        cmocka_unit_test(test_legal_deterministic_chance_nplayer),
        cmocka_unit_test(test_win_in_one),
        cmocka_unit_test(test_greedy_noise),
        cmocka_unit_test(test_forced_win_in_three),
        cmocka_unit_test(test_chance_choice),
        cmocka_unit_test(test_analyze_ranks_all),
        cmocka_unit_test(test_analyze_proven_and_sorted),
        cmocka_unit_test(test_analyze_proven_draw),
        cmocka_unit_test(test_mcts_tree_reuse),
        cmocka_unit_test(test_mcts_beats_random),
        cmocka_unit_test(test_expectimax_node_cap),
        cmocka_unit_test(test_alphabeta_node_cap),
        cmocka_unit_test(test_alphabeta_node_cap_is_deterministic),
        cmocka_unit_test(test_expectimax_pruning_is_exact),
        cmocka_unit_test(test_alphabeta_paranoid),
        cmocka_unit_test(test_time_cap_binds_every_kind),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
