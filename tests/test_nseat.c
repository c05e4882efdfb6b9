/*
 * test_nseat.c — the searches for three or more seats (issue 24) on a tiny
 * three-seat game tree whose answers are worked out by hand below:
 * Best-Reply Search (brs), MCTS's opponent model (opp=greedy|softmax), its
 * solver's mean over tied children, expansion ordered by the evaluation
 * (order=eval), Progressive History (ph) and root draws on Noname's sampled
 * moves (draws), the tree's depth cap (treedepth), greedy rollouts at the
 * leaves (rollout), the final choice by greedy playouts (rerank; their shape:
 * rerundraws, rerunsolo; the field searching in them, rerunopp; sequential
 * halving over more of the search's moves, rerunhalve, on fan3), the cap on evaluate
 * calls (evals); plus the levels per seat count and the error for a kind that cannot play a seat count. A second tiny
 * game with a die (coin3, below) checks MCTS's handling of chance nodes
 * (chance=stratify).
 *
 * The tree: seat 0 picks A or B, then seat 1 picks 0 or 1, then seat 2 picks
 * 0 or 1, and the game ends with the returns of the leaf (a table per
 * variant). The evaluate hook of an inner node is the mean of the leaves
 * below it, so greedy seats are predictable.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pips/agent.h"
#include "ai/model_solve.h"
#include "core/unchecked.h"

typedef struct tree_state {
    uint8_t ply, path; /* path: the moves so far, first move highest */
} tree_state;

typedef struct tree_config {
    int table;
} tree_config;

/* Leaves by path (A = 0, B = 1; seat 1's and seat 2's moves after). */
static const double tree_leaves[4][8][3] = {
    /* table 0: BRS and the opponent model disagree (worked out in
     * test_brs_known_answer and test_mcts_opp_greedy) */
    {{0.6, 0.2, 0.2},
     {0.1, 0.1, 0.8},
     {0.7, 0.4, 0.0},
     {0.5, 0.0, 0.5},
     {0.4, 0.3, 0.3},
     {0.45, 0.35, 0.2},
     {0.4, 0.1, 0.5},
     {0.05, 0.5, 0.1}},
    /* table 1: seat 2 is indifferent between the leaves under A,0 */
    {{0.8, 0.1, 0.1},
     {0.2, 0.7, 0.1},
     {0.3, 0.3, 0.4},
     {0.3, 0.3, 0.4},
     {0.45, 0.3, 0.25},
     {0.45, 0.3, 0.25},
     {0.45, 0.3, 0.25},
     {0.45, 0.3, 0.25}},
    /* table 2: wins (a return of 1) under A, none under B (test_mcts_exact) */
    {{1, 0, 0},
     {0, 1, 0},
     {0, 0, 1},
     {1, 0, 0},
     {0.9, 0.05, 0.05},
     {0.9, 0, 0.1},
     {0.9, 0, 0.1},
     {0.9, 0.1, 0}},
    /* table 3: A is a win under max^n (seat 1 takes A,1 for 0.3 over A,0's
     * 0.2), not under greedy (seat 1 rates A,0 by its leaves' mean, 0.6, and
     * seat 2 then takes leaf 0): test_mcts_rerank keeps the proven win */
    {{0, 0.2, 0.8},
     {1, 1.0, 0},
     {1, 0.3, 0.5},
     {1, 0.3, 0.5},
     {0.5, 0.25, 0.25},
     {0.5, 0.25, 0.25},
     {0.5, 0.25, 0.25},
     {0.5, 0.25, 0.25}},
};

static const pips_option_def tree_options[1] = {
    {"table", "0", "leaf table", .type = PIPS_OPT_INT, .min = 0, .max = 3},
};

static bool tree_configure(const pips_game *g, void *config, pips_error *err)
{
    long t;
    if (!pips_parse_int(pips_options_get(&g->options, "table"), 0, 3, &t))
        return pips_fail(err, PIPS_ERR_ARG, "option table: expected 0 to 3");
    ((tree_config *)config)->table = (int)t;
    return true;
}
static int tree_num_players(const pips_game *g) { (void)g; return 3; }
static size_t tree_max_moves(const pips_game *g) { (void)g; return 2; }
static void tree_initial(const pips_game *g, void *state)
{
    (void)g;
    memset(state, 0, sizeof(tree_state));
}
static int tree_to_move(const pips_game *g, const void *state)
{
    (void)g;
    const tree_state *s = state;
    return s->ply < 3 ? s->ply : PIPS_OVER;
}
static size_t tree_legal(const pips_game *g, const void *state, pips_move *out)
{
    if (tree_to_move(g, state) < 0)
        return 0;
    out[0] = 0;
    out[1] = 1;
    return 2;
}
static bool tree_check(const pips_game *g, const void *state, pips_move m, pips_error *err)
{
    if (tree_to_move(g, state) < 0 || m > 1)
        return pips_fail(err, PIPS_ERR_ILLEGAL, "bad move");
    return true;
}
static void tree_apply(const pips_game *g, void *state, pips_move m)
{
    (void)g;
    tree_state *s = state;
    s->path = (uint8_t)(s->path * 2 + m);
    s->ply++;
}
/* The mean of the leaves below the state (the returns at a leaf). */
static void tree_mean(const pips_game *g, const void *state, double *out)
{
    const tree_state *s = state;
    int table = ((const tree_config *)g->config)->table;
    int span = 1 << (3 - s->ply), first = s->path * span;
    for (int p = 0; p < 3; p++) {
        out[p] = 0;
        for (int i = 0; i < span; i++)
            out[p] += tree_leaves[table][first + i][p] / span;
    }
}
static void tree_result_text(const pips_game *g, const void *state, pips_str *out)
{
    (void)g;
    pips_str_catf(out, "leaf %d", ((const tree_state *)state)->path);
}
static void tree_move_to_text(const pips_game *g, const void *state, pips_move m, char *buf)
{
    (void)g;
    (void)state;
    snprintf(buf, PIPS_MOVE_TEXT_MAX, "%llu", (unsigned long long)m);
}
static bool tree_move_from_text(const pips_game *g, const void *state, const char *text,
                                pips_move *m, pips_error *err)
{
    (void)g;
    (void)state;
    long v;
    if (!pips_parse_int(text, 0, 1, &v))
        return pips_fail(err, PIPS_ERR_ARG, "move: expected 0 or 1");
    *m = (pips_move)v;
    return true;
}
static void tree_state_to_text(const pips_game *g, const void *state, pips_str *out)
{
    (void)g;
    const tree_state *s = state;
    pips_str_catf(out, "%d/%d", s->ply, s->path);
}
static bool tree_state_from_text(const pips_game *g, const char *text, void *state,
                                 pips_error *err)
{
    (void)g;
    int ply, path;
    if (sscanf(text, "%d/%d", &ply, &path) != 2 || ply < 0 || ply > 3 || path < 0 ||
        path >= 1 << ply)
        return pips_fail(err, PIPS_ERR_ARG, "state: expected ply/path");
    tree_state *s = state;
    s->ply = (uint8_t)ply;
    s->path = (uint8_t)path;
    return true;
}
static uint64_t tree_hash(const pips_game *g, const void *state)
{
    (void)g;
    const tree_state *s = state;
    return pips_mix64((uint64_t)s->ply << 8 | s->path);
}
static void tree_render(const pips_game *g, const void *state, const pips_render_opts *ro,
                        pips_str *out)
{
    (void)ro;
    tree_state_to_text(g, state, out);
}

/* The fields every hand-built tree game here shares with tree_def. */
#define TREE_DEF_COMMON                                                                    \
    .state_size = sizeof(tree_state), .num_players = tree_num_players,                     \
    .max_moves = tree_max_moves, .initial = tree_initial, .apply = tree_apply,             \
    .result_text = tree_result_text, .move_to_text = tree_move_to_text,                    \
    .move_from_text = tree_move_from_text, .state_to_text = tree_state_to_text,            \
    .state_from_text = tree_state_from_text, .hash = tree_hash, .render = tree_render,

static const pips_game_def tree_def = {
    .name = "tree3",
    .title = "Three-seat tree (test game)",
    .rules_text = "test only",
    .notation_text = "0 or 1",
    .options = tree_options,
    .n_options = 1,
    .config_size = sizeof(tree_config),
    .configure = tree_configure,
    .to_move = tree_to_move,
    .legal_moves = tree_legal,
    .check_move = tree_check,
    .returns = tree_mean,
    .evaluate = tree_mean,
    TREE_DEF_COMMON
};

static pips_game *tree_game(int table)
{
    char kv[16];
    snprintf(kv, sizeof kv, "table=%d", table);
    const char *opts[] = {kv};
    pips_error err;
    pips_game *g = pips_game_new_def(&tree_def, opts, 1, NULL, &err);
    if (!g)
        fail_msg("tree game: %s", err.msg);
    return g;
}

/* tree3s: the tree with its replies sampled, as Noname's placements are.
 * Seats 1 and 2 have four moves, 0 and 2 the same reply "0" and 1 and 3
 * the same reply "1" (tree_apply_sampled keeps the low bit), and a sample
 * holds one code of each, drawn at random: every sample offers both
 * replies, but two samples of a node seldom share their codes. */
static size_t tree_max_moves_sampled(const pips_game *g) { (void)g; return 4; }
static size_t tree_candidates(const pips_game *g, const void *state, pips_rng *rng,
                              pips_move *out)
{
    if (tree_to_move(g, state) < 0)
        return 0;
    bool reply = ((const tree_state *)state)->ply > 0;
    out[0] = reply && pips_rng_below(rng, 2) ? 2 : 0;
    out[1] = reply && pips_rng_below(rng, 2) ? 3 : 1;
    return 2;
}
static bool tree_check_sampled(const pips_game *g, const void *state, pips_move m,
                               pips_error *err)
{
    int who = tree_to_move(g, state);
    if (who < 0 || m > (who == 0 ? 1u : 3u))
        return pips_fail(err, PIPS_ERR_ILLEGAL, "bad move");
    return true;
}
static void tree_apply_sampled(const pips_game *g, void *state, pips_move m)
{
    tree_apply(g, state, m & 1);
}

/* The tree with sampled moves drawn by candidates, its definition kept in
 * *def (which must outlive the game): tree3s with tree_candidates. */
static pips_game *tree_game_sampled_by(pips_game_def *def, const char *name,
                                       size_t (*candidates)(const pips_game *, const void *,
                                                            pips_rng *, pips_move *))
{
    *def = tree_def;
    def->name = name;
    def->flags = PIPS_GAME_NOT_ENUMERABLE;
    def->max_moves = tree_max_moves_sampled;
    def->legal_moves = NULL;
    def->candidates = candidates;
    def->check_move = tree_check_sampled;
    def->apply = tree_apply_sampled;
    const char *opts[] = {"table=0"};
    pips_error err;
    pips_game *g = pips_game_new_def(def, opts, 1, NULL, &err);
    if (!g)
        fail_msg("%s: %s", name, err.msg);
    return g;
}

static pips_game *tree_game_sampled(void)
{
    static pips_game_def def;
    return tree_game_sampled_by(&def, "tree3s", tree_candidates);
}

/* coin3: seat 0 picks A (0) or B (1), then a die shows 0 (p = 0.95) or 1
 * (p = 0.05) and the game ends with the returns of coin_leaves[move][face].
 * The evaluation before the die knows nothing (1/3 each), so a value is
 * exact only once the solver has seen both faces. */
static const double coin_leaves[2][2][3] = {{{0.4, 0.3, 0.3}, {1.0, 0.0, 0.0}},
                                            {{0.45, 0.3, 0.25}, {0.0, 0.5, 0.5}}};
#define COIN_RARE 0.05

static bool coin_configure(const pips_game *g, void *config, pips_error *err)
{
    (void)g;
    (void)config;
    (void)err;
    return true;
}
static int coin_to_move(const pips_game *g, const void *state)
{
    (void)g;
    int ply = ((const tree_state *)state)->ply;
    return ply == 0 ? 0 : ply == 1 ? PIPS_CHANCE : PIPS_OVER;
}
static size_t coin_legal(const pips_game *g, const void *state, pips_move *out)
{
    if (coin_to_move(g, state) != 0)
        return 0;
    out[0] = 0;
    out[1] = 1;
    return 2;
}
static size_t coin_chance(const pips_game *g, const void *state, pips_move *out, double *prob)
{
    if (coin_to_move(g, state) != PIPS_CHANCE)
        return 0;
    out[0] = 0;
    prob[0] = 1 - COIN_RARE;
    out[1] = 1;
    prob[1] = COIN_RARE;
    return 2;
}
static bool coin_check(const pips_game *g, const void *state, pips_move m, pips_error *err)
{
    if (coin_to_move(g, state) == PIPS_OVER || m > 1)
        return pips_fail(err, PIPS_ERR_ILLEGAL, "bad move");
    return true;
}
static void coin_value(const pips_game *g, const void *state, double *out)
{
    (void)g;
    const tree_state *s = state;
    for (int p = 0; p < 3; p++)
        out[p] = s->ply == 2 ? coin_leaves[s->path >> 1][s->path & 1][p] : 1.0 / 3;
}

static const pips_game_def coin_def = {
    .name = "coin3",
    .title = "Three seats and a die (test game)",
    .rules_text = "test only",
    .notation_text = "0 or 1",
    .flags = PIPS_GAME_CHANCE,
    .configure = coin_configure,
    .to_move = coin_to_move,
    .legal_moves = coin_legal,
    .chance_outcomes = coin_chance,
    .check_move = coin_check,
    .returns = coin_value,
    .evaluate = coin_value,
    TREE_DEF_COMMON
};

/* Analyses from the start with spec; ev[0] is A's entry, ev[1] B's. */
static void analyze_ab(pips_game *g, const char *spec, uint64_t seed, pips_move_eval ev[2],
                       pips_move *choice)
{
    pips_error err;
    pips_agent *a = pips_agent_new(g, spec, seed, &err);
    if (!a)
        fail_msg("%s: %s", spec, err.msg);
    void *s = pips_state_new(g, &err);
    pips_move_eval out[2];
    assert_int_equal(agent_analyze_unchecked(a, s, out, 2, &err), 2);
    for (int i = 0; i < 2; i++)
        ev[out[i].move] = out[i];
    if (choice) {
        pips_agent *b = pips_agent_new(g, spec, seed, &err);
        assert_true(agent_choose_unchecked(b, s, choice, &err));
        pips_agent_free(b);
    }
    pips_state_free(g, s);
    pips_agent_free(a);
}

/* For seeds 1..seeds, spec values A at va and B at vb for seat 0 (within
 * tol), proves the first `proven` of them (0: none, 1: A, 2: both), and
 * plays choice (-1: unchecked). */
static void expect_ab(pips_game *g, const char *spec, uint64_t seeds, double va, double vb,
                      double tol, int proven, int choice)
{
    for (uint64_t seed = 1; seed <= seeds; seed++) {
        pips_move_eval ev[2];
        pips_move played;
        analyze_ab(g, spec, seed, ev, choice >= 0 ? &played : NULL);
        if (fabs(ev[0].value - va) > tol || fabs(ev[1].value - vb) > tol)
            fail_msg("%s, seed %llu: A %.6f, B %.6f (want %.6f, %.6f)", spec,
                     (unsigned long long)seed, ev[0].value, ev[1].value, va, vb);
        for (int i = 0; i < proven; i++)
            if (!ev[i].proven)
                fail_msg("%s, seed %llu: %c is not proven", spec, (unsigned long long)seed,
                         "AB"[i]);
        if (choice >= 0)
            assert_int_equal(played, choice);
    }
}

/* An agent of spec reads its spec back unchanged. */
static void expect_spec(pips_game *g, const char *spec)
{
    pips_error err;
    pips_agent *a = pips_agent_new(g, spec, 1, &err);
    if (!a)
        fail_msg("%s: %s", spec, err.msg);
    assert_string_equal(pips_agent_spec(a), spec);
    pips_agent_free(a);
}

/* Tic Tac Doh! with three seats. */
static pips_game *ttd3_game(void)
{
    const char *three[] = {"players=3"};
    pips_error err;
    pips_game *g = pips_game_new("tictacdoh", three, 1, NULL, &err);
    if (!g)
        fail_msg("tictacdoh players=3: %s", err.msg);
    return g;
}

/* BRS, depth 2 (my move, then the best reply), others=greedy. After A,
 * seat 1's policy move is 1 (its mean 0.2 against 0.15) and seat 2's greedy
 * reply is the leaf best for it. The reply phases: seat 1 searches (seat 2
 * greedy): A,0 -> leaf 1 (0.1), A,1 -> leaf 3 (0.5): 0.1; seat 2 searches
 * after seat 1's policy move: min(0.7, 0.5) = 0.5; both policy: 0.5. So A
 * is worth 0.1. After B seat 1's policy move is 0 (0.325 against 0.3);
 * seat 1 searching: B,0 -> leaf 4 (0.4), B,1 -> leaf 6 (0.4); seat 2
 * searching after B,0: min(0.4, 0.45); so B is worth 0.4 and is chosen,
 * although the worst leaf under B (0.05, which needs both opponents off
 * their policy) is below every leaf under A but one. */
static void test_brs_known_answer(void **unused)
{
    (void)unused;
    pips_game *g = tree_game(0);
    expect_ab(g, "brs:depth=2", 4, 0.1, 0.4, 1e-9, 0, 1);
    /* depth 1 values the children by the evaluation alone: A's mean for
     * seat 0 is 0.475, B's 0.325 */
    expect_ab(g, "brs:depth=1", 1, 0.475, 0.325, 1e-9, 0, 0);
    /* others=order: the other opponent plays its first move (0): A's lines
     * are min(0.6, 0.7) with seat 1 searching and min(0.6, 0.1) with seat 2
     * searching, so 0.1; B's 0.4 as before */
    expect_ab(g, "brs:depth=2,others=order", 1, 0.1, 0.4, 1e-9, 0, -1);
    expect_spec(g, "brs:depth=2,others=order");
    pips_error err;
    assert_null(pips_agent_new(g, "brs:others=paranoid", 1, &err));
    assert_non_null(strstr(err.msg, "others='paranoid' must be greedy or order"));
    pips_game_free(g);
}

/* BRS takes a three-seat Tic Tac Doh! win at once, and, with a time budget,
 * answers within it. */
static void test_brs_ttd(void **unused)
{
    (void)unused;
    pips_game *g = ttd3_game();
    pips_error err;
    void *s = pips_state_new(g, &err);
    /* the third seat moves: an L beside the two wins (TTD-R5) */
    assert_true(g->def->state_from_text(g, "0,0:L 1,0:L", s, &err));
    assert_int_equal(pips_to_move(g, s), 2);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        pips_agent *a = pips_agent_new(g, "brs:depth=3", seed, &err);
        assert_non_null(a);
        pips_move m;
        assert_true(agent_choose_unchecked(a, s, &m, &err));
        void *t = pips_state_new(g, &err);
        memcpy(t, s, g->def->state_size);
        g->def->apply(g, t, m);
        assert_int_equal(pips_to_move(g, t), PIPS_OVER);
        double r[PIPS_MAX_PLAYERS];
        g->def->returns(g, t, r);
        assert_true(r[2] == 1.0);
        pips_state_free(g, t);
        pips_agent_free(a);
    }
    pips_agent *a = pips_agent_new(g, "brs:time=0.2", 7, &err);
    assert_non_null(a);
    void *start = pips_state_new(g, &err);
    pips_move m;
    double t0 = pips_now();
    assert_true(agent_choose_unchecked(a, start, &m, &err));
    assert_true(pips_now() - t0 < 2.0); /* generous: a loaded machine */
    pips_agent_free(a);
    pips_state_free(g, start);
    pips_state_free(g, s);
    pips_game_free(g);
}

/* The opponent model: with opp=greedy seats 1 and 2 play greedily (seat 1
 * by the evaluation, seat 2 by the leaves): after A, seat 1 plays 1 (0.2
 * against 0.15) and seat 2 then 1 (0.5 against 0.0), so A is worth 0.5;
 * after B, seat 1 plays 0 and seat 2 then 0: 0.4. MCTS proves both and
 * plays A. Plain max^n (each seat maximising its own return) values A at
 * 0.1 (seat 1 prefers A,0 where seat 2's reply leaves it 0.1 over A,1 where
 * it gets 0) and plays B. */
static void test_mcts_opp_greedy(void **unused)
{
    (void)unused;
    pips_game *g = tree_game(0);
    expect_ab(g, "mcts:iters=400,opp=greedy", 3, 0.5, 0.4, 1e-5, 2, 0);
    expect_ab(g, "mcts:iters=400", 3, 0.1, 0.4, 1e-5, 2, 1);
    pips_game_free(g);
}

/* treedepth=D: nodes D plies below the root are never expanded, each pass
 * values them afresh. With treedepth=1 the root's children stay leaves valued
 * by the evaluation (the mean of the leaves below): A 0.475, B 0.325 for
 * seat 0, never proven, and A is played, where the grown tree proves A 0.1
 * and B 0.4 (test_mcts_opp_greedy). With treedepth=2, opp=greedy and settle=1
 * the nodes after seat 1's reply are leaves that the model plays on to the
 * end: seat 1 plays A,1 then seat 2 leaf 3 (0.5); B,0 then leaf 4 (0.4). */
static void test_mcts_depth_cap(void **unused)
{
    (void)unused;
    pips_game *g = tree_game(0);
    expect_ab(g, "mcts:iters=400,treedepth=1", 3, 0.475, 0.325, 1e-5, 0, 0);
    expect_ab(g, "mcts:iters=400,opp=greedy,settle=1,treedepth=2", 3, 0.5, 0.4, 1e-5, 0, 0);
    expect_spec(g, "mcts:iters=400,treedepth=1");
    pips_error err;
    assert_null(pips_agent_new(g, "mcts:treedepth=65", 1, &err));
    assert_non_null(strstr(err.msg, "treedepth='65'"));
    pips_game_free(g);
}

/* rollout=P: a leaf is played on P plies, every seat greedy, before it is
 * valued. With treedepth=1 the root's children are the leaves: after A
 * seat 1's greedy move is 1 (0.2 against 0.15), so rollout=1 values A by
 * the mean below A,1, 0.6 for seat 0; after B it plays 0 (0.325 against
 * 0.3): 0.425. With rollout=2 seat 2 answers greedily too (A,1,1: 0.5 for
 * it against 0.0; B,0,0: 0.3 against 0.2), so A 0.5 and B 0.4, the
 * leaves' own returns. */
static void test_mcts_rollout(void **unused)
{
    (void)unused;
    pips_game *g = tree_game(0);
    expect_ab(g, "mcts:iters=400,treedepth=1,rollout=1", 3, 0.6, 0.425, 1e-5, 0, 0);
    expect_ab(g, "mcts:iters=400,treedepth=1,rollout=2", 3, 0.5, 0.4, 1e-5, 0, 0);
    expect_spec(g, "mcts:iters=400,treedepth=1,rollout=2");
    pips_error err;
    assert_null(pips_agent_new(g, "mcts:rollout=2,leaf=playout", 1, &err));
    assert_non_null(strstr(err.msg, "rollout=2 needs evaluated leaves"));
    assert_null(pips_agent_new(g, "mcts:rollout=1001", 1, &err));
    assert_non_null(strstr(err.msg, "rollout='1001'"));
    pips_game_free(g);
}

/* rerank=M: the search's first M moves are played out to the end with
 * every seat greedy and the best mean return to the root seat is played.
 * Plain max^n proves A 0.1 and B 0.4 and would play B
 * (test_mcts_opp_greedy); greedy playouts give A 0.5 and B 0.4 (the
 * replies of test_mcts_rollout), so A is played, while the analysis keeps
 * the search's values. */
static void test_mcts_rerank(void **unused)
{
    (void)unused;
    pips_game *g = tree_game(0);
    expect_ab(g, "mcts:iters=400", 3, 0.1, 0.4, 1e-5, 2, 1);
    expect_ab(g, "mcts:iters=400,rerank=2", 3, 0.1, 0.4, 1e-5, 2, 0);
    expect_ab(g, "mcts:iters=400,rerank=2,reruns=1", 3, 0.1, 0.4, 1e-5, 2, 0);
    expect_spec(g, "mcts:iters=400,rerank=2,reruns=4");
    pips_error err;
    pips_agent *a = pips_agent_new(g, "mcts:iters=400,rerank=2", 1, &err);
    assert_non_null(a);
    void *st = pips_state_new(g, &err);
    pips_move m;
    assert_true(pips_agent_choose(a, st, &m, &err));
    assert_int_equal(m, 0);
    assert_non_null(strstr(pips_agent_note(a), "rerank: the search's move 2 of 2, 0.500"));
    pips_state_free(g, st);
    pips_agent_free(a);
    assert_null(pips_agent_new(g, "mcts:rerank=2,exact=1000", 1, &err));
    assert_non_null(strstr(err.msg, "rerank=2 and exact=1000"));
    assert_null(pips_agent_new(g, "mcts:rerank=1", 1, &err));
    assert_non_null(strstr(err.msg, "rerank='1'"));
    pips_game_free(g);
    /* a proven win is played, though greedy playouts of it lose (table 3:
     * A 1 under max^n, 0 played out greedy; B 0.5 either way) */
    g = tree_game(3);
    expect_ab(g, "mcts:iters=400", 3, 1.0, 0.5, 1e-5, 1, 0);
    expect_ab(g, "mcts:iters=400,rerank=2", 3, 1.0, 0.5, 1e-5, 1, 0);
    pips_game_free(g);
}

/* tree3s1: the tree with ONE reply drawn a sample (codes 0-3, the low bit
 * the reply): a greedy reply from one sample is the coin's, from many
 * samples almost surely the better one. */
static size_t tree_candidates_one(const pips_game *g, const void *state, pips_rng *rng,
                                  pips_move *out)
{
    if (tree_to_move(g, state) < 0)
        return 0;
    if (((const tree_state *)state)->ply == 0) {
        out[0] = 0;
        out[1] = 1;
        return 2;
    }
    out[0] = pips_rng_below(rng, 4);
    return 1;
}

/* The note of an agent of spec choosing at the start of g, and its move. */
static pips_move choose_note(pips_game *g, const char *spec, char *note, size_t cap)
{
    pips_error err;
    pips_agent *a = pips_agent_new(g, spec, 1, &err);
    if (!a)
        fail_msg("%s: %s", spec, err.msg);
    void *st = pips_state_new(g, &err);
    pips_move m;
    assert_true(pips_agent_choose(a, st, &m, &err));
    snprintf(note, cap, "%s", pips_agent_note(a));
    pips_state_free(g, st);
    pips_agent_free(a);
    return m;
}

/* rerundraws=K and rerunsolo=1 shape rerank's playouts. On tree3s1 a reply
 * from one sample is random, so one-sample playouts value A near the mean
 * of its leaves (0.475) and B near 0.325; with 64 samples every greedy
 * reply is the best of both (missed with probability 2^-64), so the
 * playouts give exactly the greedy line's returns: A 0.5 (A,1,1), B 0.4
 * (B,0,0). rerunsolo=1 scores only a win alone: table 0's returns are
 * shares below 1, so every playout scores 0, the moves tie and the
 * search's own first move stands (B, which plain max^n proves better). */
static void test_mcts_rerun_shape(void **unused)
{
    (void)unused;
    static pips_game_def def;
    pips_game *g = tree_game_sampled_by(&def, "tree3s1", tree_candidates_one);
    pips_error err;
    char note[256];
    assert_int_equal(choose_note(g, "mcts:iters=400,rerank=2,reruns=64,rerundraws=64", note,
                                 sizeof note),
                     0);
    assert_non_null(strstr(note, "0.500 a playout"));
    choose_note(g, "mcts:iters=400,rerank=2,reruns=64", note, sizeof note);
    assert_null(strstr(note, "0.500 a playout"));
    pips_game_free(g);

    g = tree_game(0);
    assert_int_equal(choose_note(g, "mcts:iters=400,rerank=2", note, sizeof note), 0);
    assert_int_equal(choose_note(g, "mcts:iters=400,rerank=2,rerunsolo=1", note, sizeof note),
                     1);
    assert_non_null(strstr(note, "rerank: the search's move 1 of 2, 0.000 a playout"));
    expect_spec(g, "mcts:iters=400,rerank=2,rerundraws=2,rerunsolo=1");
    assert_null(pips_agent_new(g, "mcts:rerundraws=2", 1, &err));
    assert_non_null(strstr(err.msg, "need rerank=M"));
    assert_null(pips_agent_new(g, "mcts:rerank=2,rerunsolo=2", 1, &err));
    assert_non_null(strstr(err.msg, "rerunsolo='2'"));
    pips_game_free(g);
}

/* fan3: the tree with eight first moves. After seat 0's move i the replies
 * are table 0's A subtree (seat 1 then seat 2, two moves each) with seat
 * 0's returns at leaves 1 and 3 made fan_maxn[i] and fan_greedy[i]: plain
 * max^n ends at leaf 1 (seat 2 takes leaf 1's 0.8 over leaf 0's 0.2, so
 * seat 1 takes reply 0 for 0.1 over reply 1's 0), greedy replies at leaf 3
 * (seat 1 rates reply 0 at 0.15 and reply 1 at 0.2 by their leaves' mean,
 * then seat 2 takes leaf 3), whatever seat 0's returns. So the search
 * proves move i at fan_maxn[i], best first in move order, and greedy
 * playouts value it at fan_greedy[i], best last. */
static const double fan_maxn[8] = {0.65, 0.6, 0.55, 0.5, 0.45, 0.4, 0.35, 0.3};
static const double fan_greedy[8] = {0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9};

static size_t fan_max_moves(const pips_game *g) { (void)g; return 8; }
static size_t fan_legal(const pips_game *g, const void *state, pips_move *out)
{
    int who = tree_to_move(g, state);
    if (who < 0)
        return 0;
    size_t n = who == 0 ? 8 : 2;
    for (size_t i = 0; i < n; i++)
        out[i] = i;
    return n;
}
static bool fan_check(const pips_game *g, const void *state, pips_move m, pips_error *err)
{
    int who = tree_to_move(g, state);
    if (who < 0 || m >= (who == 0 ? 8u : 2u))
        return pips_fail(err, PIPS_ERR_ILLEGAL, "bad move");
    return true;
}
/* The returns of leaf j (0-3) under first move i. */
static void fan_leaf(int i, int j, double *out)
{
    static const double a[4][3] = {{0.6, 0.2, 0.2}, {0, 0.1, 0}, {0.7, 0.4, 0.0}, {0, 0, 0}};
    memcpy(out, a[j], sizeof a[j]);
    if (j == 1) {
        out[0] = fan_maxn[i];
        out[2] = 0.9 - fan_maxn[i];
    }
    if (j == 3) {
        out[0] = fan_greedy[i];
        out[2] = 1 - fan_greedy[i];
    }
}
/* The mean of the leaves below the state (the returns at a leaf). */
static void fan_mean(const pips_game *g, const void *state, double *out)
{
    (void)g;
    const tree_state *s = state;
    int first = s->ply == 0 ? 0 : s->ply == 1 ? s->path * 4 : s->ply == 2 ? s->path * 2
                                                                          : s->path;
    int span = s->ply == 0 ? 32 : 1 << (3 - s->ply);
    for (int p = 0; p < 3; p++)
        out[p] = 0;
    for (int k = first; k < first + span; k++) {
        double v[3];
        fan_leaf(k >> 2, k & 3, v);
        for (int p = 0; p < 3; p++)
            out[p] += v[p] / span;
    }
}

static const pips_game_def fan_def = {
    .name = "fan3",
    .title = "Three-seat tree with eight first moves (test game)",
    .rules_text = "test only",
    .notation_text = "0 to 7, then 0 or 1",
    .configure = coin_configure,
    .to_move = tree_to_move,
    .legal_moves = fan_legal,
    .check_move = fan_check,
    .returns = fan_mean,
    .evaluate = fan_mean,
    .state_size = sizeof(tree_state),
    .num_players = tree_num_players,
    .max_moves = fan_max_moves,
    .initial = tree_initial,
    .apply = tree_apply, /* path: the first move times 4, then the replies' bits */
    .result_text = tree_result_text,
    .move_to_text = tree_move_to_text,
    .move_from_text = tree_move_from_text,
    .state_to_text = tree_state_to_text,
    .state_from_text = tree_state_from_text,
    .hash = tree_hash,
    .render = tree_render,
};

/* rerunhalve=1: sequential halving over the search's first M moves. On
 * fan3 the search ranks the moves 0..7 (fan_maxn) and greedy playouts
 * value them the other way round (fan_greedy), so plain rerank=2 plays
 * the better of moves 0 and 1 (1, 0.3), rerank=4 the best of 0..3 (3),
 * and halving over all eight plays 7 (0.9). Its schedule: with M = 8 and
 * R = 1, rounds of 8 x 1, 4 x 2 and 2 x 4 runs, 24 playouts, the winner
 * played 7 times; with M = 5, R = 2: 5 x 2, then the better 3 x 4, then 2
 * x 8, 38 playouts, the winner 14 times. The playouts are deterministic
 * here, so every run of a move scores alike. */
static void test_mcts_rerun_halve(void **unused)
{
    (void)unused;
    pips_error err;
    pips_game *g = pips_game_new_def(&fan_def, NULL, 0, NULL, &err);
    if (!g)
        fail_msg("fan3: %s", err.msg);
    char note[256];
    for (uint64_t seed = 1; seed <= 3; seed++) {
        pips_agent *a = pips_agent_new(g, "mcts:iters=2000", seed, &err);
        void *st = pips_state_new(g, &err);
        pips_move_eval ev[8];
        assert_int_equal(agent_analyze_unchecked(a, st, ev, 8, &err), 8);
        for (int i = 0; i < 8; i++) {
            assert_int_equal(ev[i].move, i);
            assert_true(ev[i].proven);
            assert_true(fabs(ev[i].value - fan_maxn[i]) < 1e-5);
        }
        pips_state_free(g, st);
        pips_agent_free(a);
    }
    assert_int_equal(choose_note(g, "mcts:iters=2000", note, sizeof note), 0);
    assert_int_equal(choose_note(g, "mcts:iters=2000,rerank=2,reruns=1", note, sizeof note), 1);
    assert_int_equal(choose_note(g, "mcts:iters=2000,rerank=4,reruns=1", note, sizeof note), 3);
    assert_int_equal(choose_note(g, "mcts:iters=2000,rerank=4,reruns=1,rerunhalve=1", note,
                                 sizeof note),
                     3);
    assert_int_equal(choose_note(g, "mcts:iters=2000,rerank=8,reruns=1,rerunhalve=1", note,
                                 sizeof note),
                     7);
    assert_non_null(strstr(note, "rerank: the search's move 8 of 8, 0.900 a playout over 7 "
                                 "runs (its first 0.200 over 1; 24 playouts, halving)"));
    assert_int_equal(choose_note(g, "mcts:iters=2000,rerank=5,reruns=2,rerunhalve=1", note,
                                 sizeof note),
                     4);
    assert_non_null(strstr(note, "rerank: the search's move 5 of 5, 0.600 a playout over 14 "
                                 "runs (its first 0.200 over 2; 38 playouts, halving)"));
    expect_spec(g, "mcts:iters=2000,rerank=8,reruns=2,rerunhalve=1");
    assert_null(pips_agent_new(g, "mcts:rerunhalve=1", 1, &err));
    assert_non_null(strstr(err.msg, "need rerank=M"));
    assert_null(pips_agent_new(g, "mcts:rerank=4,rerunhalve=2", 1, &err));
    assert_non_null(strstr(err.msg, "rerunhalve='2'"));
    pips_game_free(g);
    /* halving over the tree's two moves is plain rerank=2 (test_mcts_rerank) */
    g = tree_game(0);
    expect_ab(g, "mcts:iters=400,rerank=2,rerunhalve=1", 3, 0.1, 0.4, 1e-5, 2, 0);
    pips_game_free(g);
}

/* rerunopp=N: in rerank's playouts the first round of replies is played by
 * searches of N passes (the others greedy). On table 0 that is opp=search's
 * line (test_mcts_opp_search_and_adapt): A 0.1, B 0.4, so B is played,
 * where greedy replies give A 0.5 and A is played. rerunoppdraws=K gives
 * those searches K root samples: on tree3s1 a one-pass search ordered by
 * the evaluation plays the greedy best of its root's sample, so with 64
 * samples the playouts give the greedy line exactly (A 0.5, B 0.4, as
 * rerundraws=64 in test_mcts_rerun_shape) and with one they do not. */
static void test_mcts_rerun_opp(void **unused)
{
    (void)unused;
    pips_game *g = tree_game(0);
    pips_error err;
    char note[256];
    assert_int_equal(choose_note(g, "mcts:iters=400,rerank=2", note, sizeof note), 0);
    assert_int_equal(choose_note(g, "mcts:iters=400,rerank=2,rerunopp=50", note, sizeof note),
                     1);
    assert_non_null(strstr(note, "rerank: the search's move 1 of 2, 0.400 a playout "
                                 "(its first 0.400"));
    expect_ab(g, "mcts:iters=400,rerank=2,rerunopp=50", 3, 0.1, 0.4, 1e-5, 2, 1);
    expect_spec(g, "mcts:iters=400,rerank=2,rerunopp=50,rerunoppdraws=4");
    assert_null(pips_agent_new(g, "mcts:rerunopp=50", 1, &err));
    assert_non_null(strstr(err.msg, "need rerank=M"));
    assert_null(pips_agent_new(g, "mcts:rerank=2,rerunoppdraws=4", 1, &err));
    assert_non_null(strstr(err.msg, "needs rerunopp=N"));
    assert_null(pips_agent_new(g, "mcts:rerank=2,rerunopp=5,rerunoppdraws=65", 1, &err));
    assert_non_null(strstr(err.msg, "rerunoppdraws='65'"));
    pips_game_free(g);

    static pips_game_def def;
    g = tree_game_sampled_by(&def, "tree3s1", tree_candidates_one);
    const char *wide = "mcts:iters=400,order=eval,rerank=2,reruns=64,rerunopp=1,rerunoppdraws=64";
    assert_int_equal(choose_note(g, wide, note, sizeof note), 0);
    assert_non_null(strstr(note, "0.500 a playout"));
    choose_note(g, "mcts:iters=400,order=eval,rerank=2,reruns=64,rerunopp=1", note, sizeof note);
    assert_null(strstr(note, "0.500 a playout"));
    pips_game_free(g);
}

/* opp=topk: each opponent plays, of its k best moves by the evaluation,
 * the one worst for seat 0. With k=2 (both moves here) that is paranoid:
 * A,0 -> min(0.6, 0.1), A,1 -> min(0.7, 0.5), so A is worth 0.1; B,0 ->
 * min(0.4, 0.45), B,1 -> min(0.4, 0.05): B 0.05; A is chosen. With k=1 it
 * is the greedy model's answer (0.5 and 0.4, test_mcts_opp_greedy). */
static void test_mcts_opp_topk(void **unused)
{
    (void)unused;
    pips_game *g = tree_game(0);
    expect_ab(g, "mcts:iters=400,opp=topk", 3, 0.1, 0.05, 1e-5, 2, 0);
    expect_ab(g, "mcts:iters=400,opp=topk,k=1", 3, 0.5, 0.4, 1e-5, 2, 0);
    expect_spec(g, "mcts:iters=400,opp=topk,k=3");
    pips_game_free(g);
}

/* opp=search: each opponent's reply in the first round after the root's
 * move is found by its own search (the others greedy). After A, seat 1
 * expects seat 2's greedy replies: A,0 -> leaf 1 (0.1 to it), A,1 -> leaf 3
 * (0.0), so it plays A,0; seat 2 then takes leaf 1 (0.8): A is worth 0.1.
 * After B: B,0 -> leaf 4 (0.3), B,1 -> leaf 6 (0.1): B,0, then leaf 4: 0.4.
 * B is chosen. opp=adapt models a seat so only once it was seen to play a
 * move the greedy policy would not: before that it is the greedy model
 * (A 0.5, B 0.4); after seat 1 is seen playing A,0 (greedy plays A,1), seat
 * 1 searches and seat 2 stays greedy: A 0.1, B 0.4. */
static void test_mcts_opp_search_and_adapt(void **unused)
{
    (void)unused;
    pips_game *g = tree_game(0);
    expect_ab(g, "mcts:iters=400,opp=search", 3, 0.1, 0.4, 1e-5, 2, 1);
    expect_ab(g, "mcts:iters=400,opp=adapt", 3, 0.5, 0.4, 1e-5, 0, 0);
    pips_error err;
    pips_agent *a = pips_agent_new(g, "mcts:iters=400,opp=adapt,oppiters=50", 1, &err);
    assert_non_null(a);
    assert_string_equal(pips_agent_spec(a), "mcts:iters=400,opp=adapt,oppiters=50");
    void *s = pips_state_new(g, &err);
    pips_move_eval out[2], ev[2];
    g->def->apply(g, s, 0);  /* A: seat 1 to move */
    pips_agent_observe(a, s, 1); /* the greedy move: still greedy */
    pips_agent_observe(a, s, 0); /* off the greedy policy: a searcher */
    g->def->initial(g, s);
    assert_int_equal(pips_agent_analyze(a, s, out, 2, &err), 2);
    for (int i = 0; i < 2; i++)
        ev[out[i].move] = out[i];
    assert_true(fabs(ev[0].value - 0.1) < 1e-5);
    assert_true(fabs(ev[1].value - 0.4) < 1e-5);
    pips_state_free(g, s);
    pips_agent_free(a);
    pips_game_free(g);
}

/* opp=search where moves are sampled: an opponent's own search chooses
 * among the replies the tree drew at its node, so its answer is always one
 * of them and the node plays it. On tree3s the answers are then those of
 * the listed tree (A 0.1, B 0.4, test_mcts_opp_search_and_adapt) for every
 * seed; a search drawing a sample of its own would name a code the node
 * lacks three times in four, and the node would fall back on the greedy
 * model (A 0.5). */
static void test_mcts_opp_search_sampled(void **unused)
{
    (void)unused;
    pips_game *g = tree_game_sampled();
    expect_ab(g, "mcts:iters=400,opp=search", 8, 0.1, 0.4, 1e-5, 0, 1);
    expect_ab(g, "mcts:iters=400,opp=search,draws=4", 4, 0.1, 0.4, 1e-5, 0, 1);
    pips_game_free(g);
}

/* opp=softmax: each opponent picks a child with probability proportional
 * to exp(its value / temp); the proven value of A is that expectation. */
static void test_mcts_opp_softmax(void **unused)
{
    (void)unused;
    pips_game *g = tree_game(0);
    const double temp = 0.5;
    /* seat 2's expectation for seat 0 after A,b, then seat 1's over b */
    double after[2], seat1_value[2];
    for (int b = 0; b < 2; b++) {
        const double *l0 = tree_leaves[0][2 * b], *l1 = tree_leaves[0][2 * b + 1];
        double w0 = exp(l0[2] / temp), w1 = exp(l1[2] / temp);
        after[b] = (w0 * l0[0] + w1 * l1[0]) / (w0 + w1);
        seat1_value[b] = (l0[1] + l1[1]) / 2; /* seat 1's prior: the mean below */
    }
    double w0 = exp(seat1_value[0] / temp), w1 = exp(seat1_value[1] / temp);
    double want = (w0 * after[0] + w1 * after[1]) / (w0 + w1);
    pips_move_eval ev[2];
    analyze_ab(g, "mcts:iters=400,opp=softmax,temp=0.5", 5, ev, NULL);
    assert_true(ev[0].proven);
    assert_true(fabs(ev[0].value - want) < 1e-4);
    expect_spec(g, "mcts:iters=400,opp=softmax,temp=0.5");
    pips_error err;
    assert_null(pips_agent_new(g, "mcts:opp=paranoid", 1, &err));
    assert_non_null(strstr(err.msg, "opp='paranoid' must be max, greedy, softmax, topk, adapt or search"));
    pips_game_free(g);
}

/* Solver ties: under A,0 seat 2 gets 0.1 either way, so the node is worth
 * the mean of its two leaves, (0.5, 0.4, 0.1); seat 1 then prefers A,0
 * (0.4 against 0.3 under A,1) and A is worth exactly 0.5 to seat 0, above
 * B's 0.45, for every seed (the first of the tied children would make A
 * 0.8 or, through seat 1's choice, 0.3, as the shuffle fell). */
static void test_mcts_solver_ties_take_the_mean(void **unused)
{
    (void)unused;
    pips_game *g = tree_game(1);
    expect_ab(g, "mcts:iters=300", 6, 0.5, 0.45, 1e-5, 1, 0);
    pips_game_free(g);
}

/* order=eval tries the root's children best evaluation first: after one
 * pass the only visited child is A (mean 0.475 for seat 0 against 0.325),
 * for every seed; without it the first child is the shuffle's. */
static void test_mcts_order_eval(void **unused)
{
    (void)unused;
    pips_game *g = tree_game(0);
    int shuffled_b = 0;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        pips_move_eval ev[2];
        analyze_ab(g, "mcts:iters=1,order=eval", seed, ev, NULL);
        assert_int_equal(ev[0].visits, 1);
        assert_int_equal(ev[1].visits, 0);
        analyze_ab(g, "mcts:iters=1", seed, ev, NULL);
        shuffled_b += ev[1].visits == 1;
    }
    assert_true(shuffled_b > 0 && shuffled_b < 8);
    pips_game_free(g);
}

/* Root moves of a four-seat Noname opening searched by spec: their count,
 * each checked legal and listed once. */
static size_t noname_root_moves(const char *spec, pips_move_eval *out, size_t cap)
{
    const char *opts[] = {"players=4"};
    pips_error err;
    pips_game *g = pips_game_new("noname", opts, 1, NULL, &err);
    assert_non_null(g);
    void *s = pips_state_new(g, &err);
    pips_agent *a = pips_agent_new(g, spec, 7, &err);
    assert_non_null(a);
    size_t n = pips_agent_analyze(a, s, out, cap, &err);
    for (size_t i = 0; i < n; i++) {
        assert_true(pips_check_move(g, s, out[i].move, &err));
        for (size_t j = 0; j < i; j++)
            assert_true(out[i].move != out[j].move);
    }
    pips_agent_free(a);
    pips_state_free(g, s);
    pips_game_free(g);
    return n;
}

/* draws=K: where moves are sampled (Noname, 16 candidates a sample), the
 * root chooses among K samples merged without repeats, the same for a
 * seed; a game whose moves are listed is searched exactly as without. */
static void test_mcts_root_draws(void **unused)
{
    (void)unused;
    pips_move_eval one[64], four[64], again[64];
    size_t n1 = noname_root_moves("mcts:iters=200,order=eval,opp=greedy", one, 64);
    size_t n4 = noname_root_moves("mcts:iters=200,order=eval,opp=greedy,draws=4", four, 64);
    assert_true(n1 >= 2 && n1 <= 16);
    assert_true(n4 > 16 && n4 <= 64);
    assert_int_equal(noname_root_moves("mcts:iters=200,order=eval,opp=greedy,draws=4", again,
                                       64),
                     n4);
    for (size_t i = 0; i < n4; i++) {
        assert_true(four[i].move == again[i].move);
        assert_int_equal(four[i].visits, again[i].visits);
    }
    pips_game *g = tree_game(0);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        pips_move_eval ev[2], ev3[2];
        pips_move m, m3;
        analyze_ab(g, "mcts:iters=50,opp=greedy", seed, ev, &m);
        analyze_ab(g, "mcts:iters=50,opp=greedy,draws=3", seed, ev3, &m3);
        assert_true(m == m3);
        for (int i = 0; i < 2; i++) {
            assert_int_equal(ev[i].visits, ev3[i].visits);
            assert_true(fabs(ev[i].value - ev3[i].value) < 1e-9);
        }
    }
    pips_error err;
    pips_agent *a = pips_agent_new(g, "mcts:iters=50,draws=3", 1, &err);
    assert_non_null(a);
    assert_string_equal(pips_agent_spec(a), "mcts:iters=50,draws=3");
    pips_agent_free(a);
    assert_null(pips_agent_new(g, "mcts:draws=0", 1, &err));
    assert_non_null(strstr(err.msg, "draws"));
    pips_game_free(g);
}

/* pips_agent_analyze_max: draws=K widens the root K times, so a caller that
 * sizes its buffer by it gets every root move (pips analyze listed only the
 * first 2 x 16 before); where moves are listed in full it is the game's. */
static void test_analyze_max(void **unused)
{
    (void)unused;
    const char *opts[] = {"players=4"};
    pips_error err;
    pips_game *g = pips_game_new("noname", opts, 1, NULL, &err);
    assert_non_null(g);
    size_t mm = pips_max_moves(g);
    pips_agent *greedy = pips_agent_new(g, "greedy", 1, &err);
    pips_agent *wide = pips_agent_new(g, "mcts:iters=300,draws=8", 1, &err);
    assert_non_null(greedy);
    assert_non_null(wide);
    assert_int_equal(pips_agent_analyze_max(greedy), mm);
    assert_int_equal(pips_agent_analyze_max(wide), 8 * mm);
    assert_int_equal(pips_agent_analyze_max(NULL), 0);
    /* a game whose moves are listed in full: draws changes nothing */
    pips_game *ttd = pips_game_new("tictacdoh", NULL, 0, NULL, &err);
    assert_non_null(ttd);
    pips_agent *listed = pips_agent_new(ttd, "mcts:iters=300,draws=8", 1, &err);
    assert_non_null(listed);
    assert_int_equal(pips_agent_analyze_max(listed), pips_max_moves(ttd));
    pips_agent_free(listed);
    pips_game_free(ttd);
    void *s = pips_state_new(g, &err);
    pips_move_eval *ev = calloc(8 * mm, sizeof *ev);
    assert_non_null(ev);
    size_t n = pips_agent_analyze(wide, s, ev, 8 * mm, &err);
    assert_true(n > 2 * mm && n <= 8 * mm);
    free(ev);
    pips_state_free(g, s);
    pips_agent_free(wide);
    pips_agent_free(greedy);
    pips_game_free(g);
}

/* Progressive History: the same answers as plain UCT where the solver
 * settles them, deterministic for a seed with one or two threads, and a
 * win in one taken in three-seat Tic Tac Doh!. */
static void test_mcts_progressive_history(void **unused)
{
    (void)unused;
    pips_game *g = tree_game(0);
    pips_move_eval ev[2];
    pips_move choice;
    analyze_ab(g, "mcts:iters=400,ph=1", 3, ev, &choice);
    assert_true(fabs(ev[0].value - 0.1) < 1e-5);
    assert_int_equal(choice, 1);
    pips_game_free(g);
    g = ttd3_game();
    pips_error err;
    void *s = pips_state_new(g, &err);
    static const char *const specs[] = {"mcts:iters=3000,ph=2,opp=greedy",
                                        "mcts:iters=3000,ph=2,threads=2"};
    for (int k = 0; k < 2; k++) {
        pips_move first = 0;
        for (int rep = 0; rep < 2; rep++) {
            pips_agent *a = pips_agent_new(g, specs[k], 11, &err);
            assert_non_null(a);
            pips_move m;
            assert_true(agent_choose_unchecked(a, s, &m, &err));
            if (rep == 0)
                first = m;
            assert_int_equal(m, first); /* the same seed, the same move */
            pips_agent_free(a);
        }
    }
    pips_state_free(g, s);
    pips_game_free(g);
}

/* Levels per seat count: every game's levels make agents at every seat
 * count from 2 to its maximum (up to 6), the resolved spec is the one the
 * level's agent reads back, and a kind that cannot play the seat count is
 * an error naming the count and the kinds that can. */
/* An exact=N agent of spec at seed plays want from g's start, its spec reads
 * back as given, and its note shows the exact solve. */
static void expect_first_move(pips_game *g, const char *spec, uint64_t seed, pips_move want)
{
    pips_error err;
    pips_agent *a = pips_agent_new(g, spec, seed, &err);
    if (!a)
        fail_msg("%s: %s", spec, err.msg);
    assert_string_equal(pips_agent_spec(a), spec);
    void *s = pips_state_new(g, &err);
    pips_move m;
    assert_true(pips_agent_choose(a, s, &m, &err));
    if (m != want)
        fail_msg("%s, seed %llu: played %llu (%s)", spec, (unsigned long long)seed,
                 (unsigned long long)m, pips_agent_note(a));
    assert_non_null(strstr(pips_agent_note(a), "exact: "));
    pips_state_free(g, s);
    pips_agent_free(a);
}

/* exact=N: the root's moves solved under the opponent model. Table 0 has
 * no wins, so the expected return decides: with every seat greedy A 0.5
 * and B 0.4 (test_mcts_opp_greedy); with seat 1 a searcher (opp=search),
 * seat 1 plays A,0 (0.1 to it, seat 2 greedy then takes leaf 1) over A,1
 * (0.0) and B,0 (0.3) over B,1 (0.1): A 0.1, B 0.4, as opp=search found.
 * Table 2: after A, seat 1 plays A,0 (greedy: its mean 0.5 against 0; as a
 * searcher: 0.5 against 0, below), where
 * seat 2 gets 0 either way: leaf 0 is seat 0's win, leaf 1 is not. Every
 * leaf under B gives seat 0 0.9 and no win. So A is a win half the time
 * (seat 2's tie each way as likely), none at worst (the tie against seat
 * 0), B never; worst=1 plays for the worst case, where A and B tie at
 * 0, and B's return (0.9 against 0.5) decides. A greedy seat's ties are
 * its rng's, never taken at worst. */
static void test_mcts_exact(void **unused)
{
    (void)unused;
    static const struct {
        int table;
        const char *spec;
        pips_move want;
    } cases[] = {
        {0, "mcts:iters=50,opp=greedy,exact=1000", 0},
        {0, "mcts:iters=50,opp=search,exact=1000", 1},
        {2, "mcts:iters=50,opp=search,exact=1000", 0},
        {2, "mcts:iters=50,opp=search,exact=1000,worst=1", 1},
        {2, "mcts:iters=50,opp=greedy,exact=1000,worst=1", 0},
    };
    pips_error err;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        pips_game *g = tree_game(cases[c].table);
        for (uint64_t seed = 1; seed <= 3; seed++)
            expect_first_move(g, cases[c].spec, seed, cases[c].want);
        pips_game_free(g);
    }
    /* the values themselves */
    pips_game *g = tree_game(2);
    model_solver *ms = model_solver_new(g, 1000, 0);
    assert_non_null(ms);
    void *s = pips_state_new(g, &err);
    const pips_move moves[2] = {0, 1};
    const bool searcher[3] = {false, false, true};
    model_value v[2];
    assert_true(model_solve_moves(ms, s, searcher, moves, 2, 0, v));
    assert_true(fabs(v[0].win - 0.5) < 1e-6 && fabs(v[0].worst) < 1e-6);
    assert_true(fabs(v[0].ret - 0.5) < 1e-6);
    assert_true(fabs(v[1].win) < 1e-6 && fabs(v[1].ret - 0.9) < 1e-6);
    double own[2];
    /* seat 1 to move after A, maximising its own return with seat 2 greedy:
     * after A,0 seat 2's tie gives it leaf 1 (1 to seat 1) half the time,
     * after A,1 seat 2 takes leaf 2 (0 to seat 1) */
    g->def->apply(g, s, 0);
    assert_true(model_own_values(ms, s, moves, 2, own));
    assert_true(fabs(own[0] - 0.5) < 1e-6 && fabs(own[1]) < 1e-6);
    model_solver_free(ms);
    /* the evidence on how a seat plays (table 0): after A, greedy seat 1
     * plays A,1 (its mean 0.2 against 0.15), a searcher A,0 (0.1 against 0
     * with seat 2 greedy after) */
    pips_game *g0 = tree_game(0);
    void *a0 = pips_state_new(g0, &err);
    g0->def->apply(g0, a0, 0);
    for (pips_move played = 0; played < 2; played++) {
        ms = model_solver_new(g0, 1000, 0);
        assert_false(model_is_searcher(ms, 2, false)); /* not seen: as unknown= says */
        assert_true(model_is_searcher(ms, 2, true));
        model_observe(ms, a0, played);
        assert_int_equal(model_is_searcher(ms, 1, false), played == 0);
        assert_int_equal(model_is_searcher(ms, 1, true), played == 0);
        model_solver_free(ms);
    }
    pips_state_free(g0, a0);
    pips_game_free(g0);
    /* a budget too small gives up, and the search's move stands */
    ms = model_solver_new(g, 1, 0);
    g->def->initial(g, s);
    assert_false(model_solve_moves(ms, s, searcher, moves, 2, 0, v));
    model_solver_free(ms);
    pips_state_free(g, s);
    pips_game_free(g);
    g = ttd3_game();
    pips_agent *a = pips_agent_new(g, "mcts:iters=100,opp=adapt,exact=1000", 1, &err);
    assert_non_null(a);
    s = pips_state_new(g, &err);
    pips_move m;
    assert_true(pips_agent_choose(a, s, &m, &err));
    assert_non_null(strstr(pips_agent_note(a), "exact: gave up"));
    assert_true(pips_check_move(g, s, m, &err));
    pips_agent_free(a);
    assert_null(pips_agent_new(g, "mcts:exact=-1", 1, &err));
    assert_null(pips_agent_new(g, "mcts:exact=10,worst=2", 1, &err));
    assert_null(pips_agent_new(g, "mcts:exact=10,unknown=max", 1, &err));
    assert_non_null(strstr(err.msg, "unknown='max' must be greedy or search"));
    /* pick=1 asks the searcher's own search where its tie matters */
    assert_null(pips_agent_new(g, "mcts:opp=greedy,exact=10,pick=1", 1, &err));
    assert_non_null(strstr(err.msg, "pick=1 needs exact=N and opp=adapt or opp=search"));
    a = pips_agent_new(g, "mcts:iters=100,opp=search,exact=100000,pick=1,oppiters=50", 1, &err);
    assert_non_null(a);
    assert_string_equal(pips_agent_spec(a),
                        "mcts:iters=100,opp=search,oppiters=50,exact=100000,pick=1");
    static const char *const played[] = {"M@0,0", "S@0,0", "L@1,0", "L@2,0", "M@2,-1",
                                         "S@1,1", "S@2,-1", "L@1,-1", "L@0,1"};
    for (size_t i = 0; i < sizeof played / sizeof played[0]; i++) {
        assert_true(g->def->move_from_text(g, s, played[i], &m, &err));
        g->def->apply(g, s, m);
    }
    assert_true(pips_agent_choose(a, s, &m, &err));
    assert_non_null(strstr(pips_agent_note(a), "exact: a win"));
    assert_true(pips_check_move(g, s, m, &err));
    pips_agent_free(a);
    pips_state_free(g, s);
    pips_game_free(g);
}

/* prior=P: the root's moves weighed over every assignment of the other
 * seats to greedy or searcher, each seat searching with chance P before
 * it has moved. Table 0 (no wins, so the expected return decides): seat 2
 * moves last, where both models play alike; seat 1 greedy makes A 0.5 and
 * B 0.4, seat 1 searching A 0.1 and B 0.4 (test_mcts_exact). So A is worth
 * 0.5 - 0.4 P and B 0.4: A below P = 0.25, B above. The evidence: after A,
 * greedy seat 1 plays A,1 (its only best) and a searcher A,0; A,1 is thus
 * 1 to 10 against searching (the searcher's slip, 0.1), its chance P / (P +
 * 10 (1 - P)), and A,0 rules greedy out. */
static void test_mcts_exact_prior(void **unused)
{
    (void)unused;
    pips_error err;
    pips_game *g = tree_game(0);
    static const struct {
        const char *spec;
        pips_move want;
    } cases[] = {
        {"mcts:iters=50,opp=adapt,exact=1000", 0},
        {"mcts:iters=50,opp=adapt,exact=1000,prior=0.2", 0},
        {"mcts:iters=50,opp=adapt,exact=1000,prior=0.3", 1},
        {"mcts:iters=50,opp=adapt,exact=1000,prior=0.9", 1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++)
        for (uint64_t seed = 1; seed <= 3; seed++)
            expect_first_move(g, cases[c].spec, seed, cases[c].want);
    /* the weighed values: A 0.5 - 0.4 x 0.2 = 0.42 in the note */
    pips_agent *a = pips_agent_new(g, "mcts:iters=50,opp=adapt,exact=1000,prior=0.2", 1, &err);
    void *s = pips_state_new(g, &err);
    pips_move m;
    assert_true(pips_agent_choose(a, s, &m, &err));
    if (!strstr(pips_agent_note(a), "return 0.420") ||
        !strstr(pips_agent_note(a), "searchers: 2 (0.20),3 (0.20); 4 of 4 models solved"))
        fail_msg("note: %s", pips_agent_note(a));
    pips_agent_free(a);
    /* the chance of searching after one move */
    g->def->apply(g, s, 0);
    for (pips_move played = 0; played < 2; played++) {
        model_solver *ms = model_solver_new(g, 1000, 0);
        assert_non_null(ms);
        assert_true(fabs(model_searcher_chance(ms, 1, 0.5) - 0.5) < 1e-12);
        assert_true(model_searcher_chance(ms, 1, 0) == 0);
        model_observe(ms, s, played);
        double want = played == 0 ? 1.0 : 0.5 / (0.5 + 10 * 0.5);
        if (fabs(model_searcher_chance(ms, 1, 0.5) - want) > 1e-9)
            fail_msg("played %llu: chance %.6f, want %.6f", (unsigned long long)played,
                     model_searcher_chance(ms, 1, 0.5), want);
        model_solver_free(ms);
    }
    pips_state_free(g, s);
    assert_null(pips_agent_new(g, "mcts:opp=adapt,prior=0.5", 1, &err));
    assert_non_null(strstr(err.msg, "prior=0.5 needs exact=N and opp=adapt"));
    assert_null(pips_agent_new(g, "mcts:opp=search,exact=1000,prior=0.5", 1, &err));
    assert_null(pips_agent_new(g, "mcts:opp=adapt,exact=1000,unknown=search,prior=0.5", 1, &err));
    assert_null(pips_agent_new(g, "mcts:opp=adapt,exact=1000,prior=1", 1, &err));
    pips_game_free(g);
}

/* model_solver_begin_move: the solves of one move share the table. Table
 * 0 from the start, seat 1 searching (model X) and then seats 1 and 2 (Y):
 * each solve stores the root seat's values at the 2 positions after its
 * move and at the 2 that searcher 1 plays to (A,0 and B,0), and seat 1's
 * own values at the 4 positions after its moves (seat 2's own values are
 * leaves, not stored): 8. Under begin_move Y's values are a fresh
 * solver's but it stores only its 4 root values: seat 1's own values,
 * which no model changes, are kept from X. So the budget counts the
 * move's solves together: with room for 10, Y gives up after X under
 * begin_move, where without it the half-full table is emptied first. */
static void test_model_solve_per_move(void **unused)
{
    (void)unused;
    pips_error err;
    pips_game *g = tree_game(0);
    void *s = pips_state_new(g, &err);
    const pips_move moves[2] = {0, 1};
    const bool x[3] = {false, true, false}, y[3] = {false, true, true};
    model_value fresh[2], vx[2], vy[2];
    model_solver *ms = model_solver_new(g, 1000, 0);
    assert_true(model_solve_moves(ms, s, y, moves, 2, 0, fresh));
    assert_int_equal(model_solver_positions(ms), 8);
    model_solver_free(ms);
    ms = model_solver_new(g, 1000, 0);
    model_solver_begin_move(ms);
    assert_true(model_solve_moves(ms, s, x, moves, 2, 0, vx));
    assert_int_equal(model_solver_positions(ms), 8);
    assert_true(model_solve_moves(ms, s, y, moves, 2, 0, vy));
    assert_int_equal(model_solver_positions(ms), 12);
    for (int i = 0; i < 2; i++)
        assert_memory_equal(&vy[i], &fresh[i], sizeof vy[i]);
    assert_true(fabs(vx[0].ret - 0.1) < 1e-6 && fabs(vx[1].ret - 0.4) < 1e-6);
    model_solver_free(ms);
    for (int per_move = 0; per_move < 2; per_move++) {
        ms = model_solver_new(g, 10, 0);
        if (per_move)
            model_solver_begin_move(ms);
        assert_true(model_solve_moves(ms, s, x, moves, 2, 0, vx));
        assert_int_equal(model_solve_moves(ms, s, y, moves, 2, 0, vy), !per_move);
        model_solver_free(ms);
    }
    pips_state_free(g, s);
    pips_game_free(g);
}

/* chance=stratify takes a chance node's outcomes in turn by their share of
 * its passes: the rare face (p = 0.05) is first taken on the chance node's
 * 21st pass (its share 0.05 x 21 passes exceeds the common face's 0.95 x 21
 * less its 19 visits), whatever the seed, so within 50 passes both moves
 * have met both faces and are proven at their expectations (A 0.95 x 0.4 +
 * 0.05 x 1 = 0.43, B 0.4275) and A is played. Sampled by probability, the
 * rare face is missed in 20 draws with chance 0.95^20 = 0.36, so some seed
 * leaves a move unproven. The spec reads back, and a bad value is an error. */
static void test_mcts_chance_stratify(void **unused)
{
    (void)unused;
    pips_error err;
    pips_game *g = pips_game_new_def(&coin_def, NULL, 0, NULL, &err);
    if (!g)
        fail_msg("coin3: %s", err.msg);
    double want[2];
    for (int m = 0; m < 2; m++)
        want[m] = (1 - COIN_RARE) * coin_leaves[m][0][0] + COIN_RARE * coin_leaves[m][1][0];
    expect_ab(g, "mcts:iters=50,chance=stratify", 8, want[0], want[1], 1e-6, 2, 0);
    int sampled_open = 0;
    for (uint64_t seed = 1; seed <= 8; seed++) {
        pips_move_eval ev[2];
        analyze_ab(g, "mcts:iters=50", seed, ev, NULL);
        sampled_open += !ev[0].proven || !ev[1].proven;
    }
    assert_true(sampled_open > 0);
    expect_spec(g, "mcts:iters=100,chance=stratify");
    assert_null(pips_agent_new(g, "mcts:chance=even", 1, &err));
    assert_non_null(strstr(err.msg, "chance='even' must be sample or stratify"));
    pips_game_free(g);
}

/* A scripted searcher for test_mcts_exact_pick: the moves in order, round
 * and round, and who was asked. */
typedef struct scripted_pick {
    const pips_move *moves;
    int len, calls;
    bool asked_other; /* asked for a seat other than 1 */
} scripted_pick;

static pips_move scripted_move(void *ctx, const void *state, int who)
{
    (void)state;
    scripted_pick *sp = ctx;
    sp->asked_other = sp->asked_other || who != 1;
    return sp->moves[sp->calls++ % sp->len];
}

/* As scripted_move for seat 1 (counted); seat 2 always plays 0. */
static pips_move scripted_seat1(void *ctx, const void *state, int who)
{
    return who == 1 ? scripted_move(ctx, state, who) : 0;
}

/* pick=K: a searcher in the first round of replies plays the moves its
 * searches return, each sample weighted 1/K, or one move when the first two
 * agree. Table 2, seat 1 searching, seat 2 greedy: after A,0 seat 2 is
 * indifferent (root wins 0.5), after A,1 it takes leaf 2 (root 0); under
 * the model seat 1 plays A,0 (its own 0.5 against 0). */
static void test_mcts_exact_pick(void **unused)
{
    (void)unused;
    pips_error err;
    pips_game *g = tree_game(2);
    void *s = pips_state_new(g, &err);
    const pips_move moves[2] = {0, 1};
    const bool searcher[3] = {false, true, false};
    static const struct {
        pips_move script[4];
        int picks, calls;
        double win_a;
    } cases[] = {
        {{0, 1, 1, 1}, 4, 8, 0.25 * 0.5}, /* A: 0 once, 1 three times; B the same */
        {{1, 1, 0, 0}, 4, 4, 0.0},        /* the first two agree: 1 for A, 0 for B */
        {{0, 1, 1, 1}, 1, 2, 0.5},        /* one sample each: 0 for A */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        model_solver *ms = model_solver_new(g, 1000, 0);
        assert_non_null(ms);
        scripted_pick sp = {cases[c].script, 4, 0, false};
        model_solver_set_pick(ms, scripted_move, &sp, cases[c].picks, 0);
        model_value v[2];
        assert_true(model_solve_moves(ms, s, searcher, moves, 2, 0, v));
        if (fabs(v[0].win - cases[c].win_a) > 1e-6 || sp.calls != cases[c].calls)
            fail_msg("case %zu: a win %.4f after A (want %.4f), %d calls (want %d)", c,
                     v[0].win, cases[c].win_a, sp.calls, cases[c].calls);
        assert_true(fabs(v[1].win) < 1e-6 && fabs(v[1].ret - 0.9) < 1e-6);
        assert_false(sp.asked_other); /* greedy seat 2 is never asked */
        model_solver_free(ms);
    }
    /* the answers are kept for the solves of one move: a solve with seat 2
     * searching too asks seat 1 nothing new, until they are forgotten */
    {
        static const pips_move script[4] = {0, 1, 1, 1};
        scripted_pick sp = {script, 4, 0, false};
        const bool both[3] = {false, true, true};
        model_value v[2];
        for (int forget = 0; forget < 2; forget++) {
            model_solver *ms = model_solver_new(g, 1000, 0);
            assert_true(model_solver_set_pick(ms, scripted_seat1, &sp, 4, 0));
            assert_true(model_solve_moves(ms, s, searcher, moves, 2, 0, v));
            assert_int_equal(sp.calls, 8 + 8 * forget);
            if (forget)
                model_solver_begin_move(ms);
            assert_true(model_solve_moves(ms, s, both, moves, 2, 0, v));
            assert_int_equal(sp.calls, 8 + 16 * forget);
            model_solver_free(ms);
        }
    }
    /* without pick, the model: seat 1 plays A,0 */
    model_solver *ms = model_solver_new(g, 1000, 0);
    model_value v[2];
    assert_true(model_solve_moves(ms, s, searcher, moves, 2, 0, v));
    assert_true(fabs(v[0].win - 0.5) < 1e-6);
    model_solver_free(ms);
    pips_state_free(g, s);
    pips_game_free(g);
    /* the spec: pick=K up to 64 */
    pips_game *t3 = ttd3_game();
    pips_agent *a = pips_agent_new(t3, "mcts:iters=10,opp=adapt,exact=1000,pick=8", 1, &err);
    assert_non_null(a);
    assert_string_equal(pips_agent_spec(a), "mcts:iters=10,opp=adapt,exact=1000,pick=8");
    pips_agent_free(a);
    assert_null(pips_agent_new(t3, "mcts:opp=adapt,exact=1000,pick=65", 1, &err));
    /* oppsettle=1: the opponents' own searches settle their leaves (as a
     * settle=1 hard does); kept only where there are such searches */
    a = pips_agent_new(t3, "mcts:iters=10,opp=adapt,oppsettle=1,exact=1000,pick=2", 1, &err);
    assert_non_null(a);
    assert_string_equal(pips_agent_spec(a),
                        "mcts:iters=10,opp=adapt,oppsettle=1,exact=1000,pick=2");
    void *st = pips_state_new(t3, &err);
    pips_move m;
    assert_true(pips_agent_choose(a, st, &m, &err));
    assert_true(pips_check_move(t3, st, m, &err));
    pips_state_free(t3, st);
    pips_agent_free(a);
    /* without those searches oppsettle is refused, not dropped: test_bad_specs */
    assert_null(pips_agent_new(t3, "mcts:opp=adapt,oppsettle=2", 1, &err));
    assert_null(pips_agent_new(t3, "mcts:opp=greedy,exact=1000,pick=4", 1, &err));
    assert_non_null(strstr(err.msg, "pick=4 needs exact=N and opp=adapt or opp=search"));
    pips_game_free(t3);
}

/* pickobs=N: the evidence on a seat's kind weighs N answers of its own
 * search. Table 0 after A, seat 1 plays 1 (greedy's only best, off the
 * searcher model's best: 0.1 as a searcher without pickobs, chance 1/11 at
 * prior 0.5); its search, asked four times, answers 1 three times: the
 * likelihood as a searcher is (3 + 0.1) / 5. */
static void test_mcts_exact_pickobs(void **unused)
{
    (void)unused;
    pips_error err;
    pips_game *g = tree_game(0);
    void *s = pips_state_new(g, &err);
    g->def->apply(g, s, 0);
    {
        static const pips_move script[4] = {1, 0, 1, 1};
        scripted_pick sp = {script, 4, 0, false};
        model_solver *ms = model_solver_new(g, 1000, 0);
        assert_true(model_solver_set_pick(ms, scripted_move, &sp, 4, 0));
        model_solver_set_observe_picks(ms, 4);
        model_observe(ms, s, 1);
        assert_int_equal(sp.calls, 4);
        double like = (3 + 0.1) / 5, want = 0.5 * like / (0.5 * like + 0.5);
        if (fabs(model_searcher_chance(ms, 1, 0.5) - want) > 1e-9)
            fail_msg("pickobs: chance %.6f, want %.6f", model_searcher_chance(ms, 1, 0.5), want);
        model_solver_free(ms);
    }
    pips_agent *b = pips_agent_new(g, "mcts:iters=5,opp=adapt,exact=100,pick=2,pickobs=8", 1, &err);
    assert_non_null(b);
    assert_string_equal(pips_agent_spec(b), "mcts:iters=5,opp=adapt,exact=100,pick=2,pickobs=8");
    pips_agent_free(b);
    assert_null(pips_agent_new(g, "mcts:opp=adapt,exact=100,pickobs=8", 1, &err));
    assert_non_null(strstr(err.msg, "pickobs=8 needs pick=K and opp=adapt"));
    pips_state_free(g, s);
    pips_game_free(g);
}

/* pickply=D: a pick that answers with the first legal move and records
 * how deep below the root position (pieces placed since) it was asked. */
typedef struct depth_pick {
    const pips_game *g;
    int root_pieces, deepest, calls;
} depth_pick;

static int ttd_pieces(const pips_game *g, const void *state)
{
    pips_str text;
    pips_str_init(&text, NULL);
    g->def->state_to_text(g, state, &text);
    int pieces = 0;
    for (const char *c = text.data; c && *c; c++)
        pieces += *c == 'S' || *c == 'M' || *c == 'L';
    pips_str_free(&text);
    return pieces;
}

static pips_move depth_move(void *ctx, const void *state, int who)
{
    (void)who;
    depth_pick *dp = ctx;
    int ply = ttd_pieces(dp->g, state) - dp->root_pieces;
    dp->deepest = ply > dp->deepest ? ply : dp->deepest;
    dp->calls++;
    pips_move m[256];
    return dp->g->def->legal_moves(dp->g, state, m) ? m[0] : PIPS_MOVE_NONE;
}

/* pickply=D: outside the first round of replies (plies 1 and 2 at three
 * seats) a searcher's tie is asked only within D plies of the root's move;
 * deeper, the model's mean stands. Three-seat Tic Tac Doh! after three greedy
 * moves, seat 0 to move, seats 1 and 2 searching: with no limit asks land
 * deeper than the first round; with D = 4 none lands deeper than ply 4,
 * with D = 2 none past the first round, fewer asks each time; and a D past
 * the game's end asks and values exactly as no limit does. */
static void test_mcts_exact_pickply(void **unused)
{
    (void)unused;
    pips_error err;
    pips_game *g = ttd3_game();
    void *s = pips_state_new(g, &err);
    pips_agent *gr = pips_agent_new(g, "greedy", 5, &err);
    for (int i = 0; i < 3; i++) {
        pips_move m;
        assert_true(pips_agent_choose(gr, s, &m, &err));
        g->def->apply(g, s, m);
    }
    pips_agent_free(gr);
    assert_int_equal(pips_to_move(g, s), 0);
    pips_move moves[256];
    assert_true(pips_max_moves(g) <= 256);
    size_t n = g->def->legal_moves(g, s, moves);
    assert_true(n > 1);
    const bool searcher[3] = {false, true, true};
    model_value none[256], v[256];
    int calls[4] = {0}, deepest[4] = {0};
    static const int limits[4] = {0, 40, 4, 2};
    for (int c = 0; c < 4; c++) {
        depth_pick dp = {g, ttd_pieces(g, s), 0, 0};
        model_solver *ms = model_solver_new(g, 4000000, 0);
        assert_non_null(ms);
        assert_true(model_solver_set_pick(ms, depth_move, &dp, 1, limits[c]));
        assert_true(model_solve_moves(ms, s, searcher, moves, n, 0, c ? v : none));
        calls[c] = dp.calls;
        deepest[c] = dp.deepest;
        model_solver_free(ms);
        if (c == 1)
            for (size_t i = 0; i < n; i++)
                assert_true(v[i].win == none[i].win && v[i].ret == none[i].ret);
    }
    assert_true(deepest[0] > 4);
    assert_int_equal(calls[1], calls[0]);
    assert_int_equal(deepest[1], deepest[0]);
    assert_true(deepest[2] <= 4 && calls[2] < calls[0]);
    assert_true(deepest[3] <= 2 && calls[3] < calls[2]);
    /* the spec */
    pips_agent *a = pips_agent_new(g, "mcts:iters=10,opp=adapt,exact=1000,pick=2,pickply=5", 1,
                                   &err);
    assert_non_null(a);
    assert_string_equal(pips_agent_spec(a), "mcts:iters=10,opp=adapt,exact=1000,pick=2,pickply=5");
    pips_agent_free(a);
    assert_null(pips_agent_new(g, "mcts:opp=adapt,exact=1000,pickply=5", 1, &err));
    assert_non_null(strstr(err.msg, "pickply=5 needs pick=K"));
    assert_null(pips_agent_new(g, "mcts:opp=adapt,exact=1000,pick=2,pickply=65", 1, &err));
    pips_state_free(g, s);
    pips_game_free(g);
}

/* A node that follows the greedy policy keeps only the children that policy
 * can play (mcts.c, greedy_ties): the search is the same pass for pass. The
 * visits below (the root's moves by value) were recorded with the code
 * before that change, same seed and position, four-seat Tic Tac Doh!:
 * hard's own spec, and one whose opponents search (opp=search: the greedy
 * policy inside their searches and past the first round). */
static void test_mcts_greedy_ties_only(void **unused)
{
    (void)unused;
    const char *four[] = {"players=4"};
    pips_error err;
    pips_game *g = pips_game_new("tictacdoh", four, 1, NULL, &err);
    assert_non_null(g);
    void *s = pips_state_new(g, &err);
    assert_true(g->def->state_from_text(g, "0,0:S 1,0:M 1,1:L", s, &err));
    static const struct {
        const char *spec;
        uint32_t visits[6];
    } cases[] = {
        {"mcts:iters=3000,opp=greedy,settle=1", {985, 221, 199, 172, 168, 157}},
        {"mcts:iters=2000,opp=search,oppiters=300,oppsettle=1,settle=1",
         {963, 193, 164, 77, 67, 65}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        pips_agent *a = pips_agent_new(g, cases[c].spec, 7, &err);
        assert_non_null(a);
        pips_move_eval ev[256];
        size_t n = pips_agent_analyze(a, s, ev, 256, &err);
        assert_true(n >= 6);
        for (int i = 0; i < 6; i++)
            if (ev[i].visits != cases[c].visits[i])
                fail_msg("%s: move %d has %u visits (want %u)", cases[c].spec, i + 1,
                         (unsigned)ev[i].visits, cases[c].visits[i]);
        pips_agent_free(a);
    }
    pips_state_free(g, s);
    pips_game_free(g);
}

/* The root's visits summed over its children: the passes of the search. */
static uint64_t root_passes(pips_game *g, const char *spec, uint64_t seed)
{
    pips_move_eval ev[2];
    analyze_ab(g, spec, seed, ev, NULL);
    return ev[0].visits + ev[1].visits;
}

/* evals=E stops the passes once the evaluate hook has been called E times
 * (read after each pass). With opp=greedy on the tree: passes 1 and 2 each
 * value a new child of the root (one call each); pass 3 expands a root
 * child, seat 1's two children valued for the model (two calls), and
 * values the child it picks (one): five calls after three passes. So E = 1
 * stops after one pass, 2 after two, 3 to 5 after three, for every seed.
 * The opponents' own searches count too: with opp=search,oppiters=2, pass 3
 * also runs seat 1's two-pass search (two calls, seven in all), so E = 6
 * stops there, where opp=greedy goes on. threads=2 gives each tree E/2. */
static void test_mcts_evals_cap(void **unused)
{
    (void)unused;
    pips_game *g = tree_game(0);
    static const uint64_t want[] = {0, 1, 2, 3, 3, 3};
    for (uint64_t seed = 1; seed <= 4; seed++)
        for (int e = 1; e <= 5; e++) {
            char spec[64];
            snprintf(spec, sizeof spec, "mcts:iters=400,evals=%d,opp=greedy", e);
            assert_int_equal(root_passes(g, spec, seed), want[e]);
        }
    assert_int_equal(root_passes(g, "mcts:iters=400,evals=6,opp=search,oppiters=2", 1), 3);
    assert_true(root_passes(g, "mcts:iters=400,evals=6,opp=greedy", 1) > 3);
    assert_int_equal(root_passes(g, "mcts:iters=400,evals=4,threads=2,opp=greedy", 1), 4);
    assert_true(root_passes(g, "mcts:iters=400,opp=greedy", 1) > 5);
    expect_spec(g, "mcts:iters=400,evals=5,opp=greedy");
    pips_error err;
    assert_null(pips_agent_new(g, "mcts:evals=0", 1, &err));
    assert_non_null(strstr(err.msg, "evals='0'"));
    pips_game_free(g);
}

/* Seat 0's values of A and B by an opp=adapt agent of spec that has seen
 * seat 1 play off the greedy policy (so seat 1 searches, seat 2 is greedy;
 * test_mcts_opp_search_and_adapt). */
static void analyze_seat1_searching(pips_game *g, const char *spec, uint64_t seed,
                                    pips_move_eval ev[2])
{
    pips_error err;
    pips_agent *a = pips_agent_new(g, spec, seed, &err);
    if (!a)
        fail_msg("%s: %s", spec, err.msg);
    void *s = pips_state_new(g, &err);
    g->def->apply(g, s, 0);      /* A: seat 1 to move */
    pips_agent_observe(a, s, 0); /* off the greedy policy: a searcher */
    g->def->initial(g, s);
    pips_move_eval out[2];
    assert_int_equal(pips_agent_analyze(a, s, out, 2, &err), 2);
    for (int i = 0; i < 2; i++)
        ev[out[i].move] = out[i];
    pips_state_free(g, s);
    pips_agent_free(a);
}

/* oppruns=K and oppevals=E (the opponents' own searches). Seat 1 searching,
 * seat 2 greedy: with oppiters=1 seat 1's search after A visits one of its
 * two moves, the first of an order its fresh rng shuffles, and plays it:
 * A,0 leaves seat 0 leaf 1 (0.1), A,1 then seat 2's greedy leaf 3 (0.5).
 * With oppruns=K that node plays each answer in proportion to how many of
 * the K searches gave it, so A is worth (c x 0.1 + (K - c) x 0.5) / K for
 * the count c of A,0; B is 0.4 whatever seat 1 plays. With 300-pass
 * searches every run finds A,0, so any K gives opp=search's answer (A
 * 0.1). oppevals=E stops each such search at E evaluate calls: with
 * evals=7 and 2-pass searches the outer search runs 3 passes (2 leaves,
 * then 2 priors + 2 + 1 leaf), with oppevals=1 four (the third pass costs
 * one evaluation less). */
static void test_mcts_opp_runs_and_evals(void **unused)
{
    (void)unused;
    pips_game *g = tree_game(0);
    expect_ab(g, "mcts:iters=400,opp=search,oppruns=4", 3, 0.1, 0.4, 1e-5, 2, 1);
    int mixed = 0, pure = 0;
    for (uint64_t seed = 1; seed <= 12; seed++) {
        pips_move_eval ev[2];
        analyze_seat1_searching(g, "mcts:iters=400,opp=adapt,oppiters=1,oppruns=8", seed, ev);
        double c = (0.5 - ev[0].value) / 0.4 * 8; /* the searches that chose A,0 */
        if (fabs(c - round(c)) > 1e-4 || c < -1e-4 || c > 8 + 1e-4 ||
            fabs(ev[1].value - 0.4) > 1e-5 || !ev[0].proven)
            fail_msg("seed %llu: A %.6f, B %.6f", (unsigned long long)seed, ev[0].value,
                     ev[1].value);
        if (round(c) > 0 && round(c) < 8)
            mixed++;
        analyze_seat1_searching(g, "mcts:iters=400,opp=adapt,oppiters=1", seed, ev);
        if (fabs(ev[0].value - 0.1) < 1e-5 || fabs(ev[0].value - 0.5) < 1e-5)
            pure++;
    }
    assert_true(mixed > 0);     /* eight searches of one pass disagree */
    assert_int_equal(pure, 12); /* one search: one answer, played always */
    assert_int_equal(root_passes(g, "mcts:iters=400,evals=7,opp=search,oppiters=2", 1), 3);
    assert_int_equal(root_passes(g, "mcts:iters=400,evals=7,opp=search,oppiters=2,oppevals=1", 1),
                     4);
    expect_spec(g, "mcts:iters=400,opp=adapt,oppiters=100,oppevals=15000,oppruns=4");
    pips_error err;
    /* without opponent searches oppruns and oppevals are refused: test_bad_specs */
    assert_null(pips_agent_new(g, "mcts:opp=adapt,oppruns=65", 1, &err));
    assert_non_null(strstr(err.msg, "oppruns='65'"));
    assert_null(pips_agent_new(g, "mcts:opp=adapt,oppevals=-1", 1, &err));
    pips_game_free(g);
}

/* oppsample=K: a searching seat with more than K moves plays the best prior
 * of K of them drawn at random. With K = 1 of the tree's two moves that is
 * either move at 1/2: under opp=search (seats 1 and 2 searching) A is
 * worth the mean of its four leaves for seat 0, (0.6 + 0.1 + 0.7 + 0.5) / 4
 * = 0.475, and B (0.4 + 0.45 + 0.4 + 0.05) / 4 = 0.325, both proven, and A
 * is played. With seat 1 searching and seat 2 greedy (opp=adapt), A is
 * (0.1 + 0.5) / 2 = 0.3 (seat 2 takes leaf 1 after A,0 and leaf 3 after
 * A,1) and B 0.4 (leaves 4 and 6). With K = 2 no seat has more than K
 * moves, so the values are opp=search's own (A 0.1, B 0.4). A model
 * playout (settle=1, 2 passes) draws the move at random too: over seeds
 * both of seat 1's moves are met. */
static void test_mcts_opp_sample(void **unused)
{
    (void)unused;
    pips_game *g = tree_game(0);
    expect_ab(g, "mcts:iters=400,opp=search,oppsample=1", 3, 0.475, 0.325, 1e-5, 2, 0);
    expect_ab(g, "mcts:iters=400,opp=search,oppsample=2", 3, 0.1, 0.4, 1e-5, 2, 1);
    expect_ab(g, "mcts:iters=400,opp=search", 3, 0.1, 0.4, 1e-5, 2, 1);
    for (uint64_t seed = 1; seed <= 3; seed++) {
        pips_move_eval ev[2];
        analyze_seat1_searching(g, "mcts:iters=400,opp=adapt,oppsample=1", seed, ev);
        if (fabs(ev[0].value - 0.3) > 1e-5 || fabs(ev[1].value - 0.4) > 1e-5 || !ev[0].proven ||
            !ev[1].proven)
            fail_msg("seed %llu: A %.6f, B %.6f", (unsigned long long)seed, ev[0].value,
                     ev[1].value);
    }
    bool low = false, high = false; /* A's leaf value after one settled pass: 0.1 or 0.5 */
    for (uint64_t seed = 1; seed <= 16; seed++) {
        pips_move_eval ev[2];
        analyze_seat1_searching(g, "mcts:iters=2,opp=adapt,oppsample=1,settle=1", seed, ev);
        if (ev[0].visits == 1 && fabs(ev[0].value - 0.1) < 1e-5)
            low = true;
        if (ev[0].visits == 1 && fabs(ev[0].value - 0.5) < 1e-5)
            high = true;
    }
    assert_true(low && high);
    expect_spec(g, "mcts:iters=400,opp=adapt,oppiters=100,oppsample=16,settle=1");
    pips_error err;
    /* no seat modelled as searching: the option would do nothing, so it is refused */
    assert_null(pips_agent_new(g, "mcts:iters=400,opp=greedy,oppsample=4", 1, &err));
    assert_non_null(strstr(err.msg, "oppsample=4 models the seats that search"));
    assert_null(pips_agent_new(g, "mcts:opp=adapt,oppsample=-1", 1, &err));
    assert_non_null(strstr(err.msg, "oppsample"));
    pips_game_free(g);
}

/* sym=1|2: one move per set whose results are symmetric. Four-seat
 * Nimitz's 675 first placements are 9 (test_nimitz's test_canonical), so
 * the analysis ranks 9 moves with either, and every one of them gets
 * passes; without it, 675. sym=1 leaves the other seats' moves alone (a
 * modelled reply values all of its seat's moves), sym=2 reduces those of
 * seats modelled as searchers too (opp=search: all), so the same
 * evals=20000 buys several times the passes (25 and 209 at seed 1). A
 * game without a canonical hook (the tree) refuses it. */
static void test_mcts_sym(void **unused)
{
    (void)unused;
    const char *four[] = {"players=4"};
    pips_error err;
    pips_game *g = pips_game_new("nimitz", four, 1, NULL, &err);
    assert_non_null(g);
    void *s = pips_state_new(g, &err);
    size_t cap = pips_max_moves(g);
    pips_move_eval *out = calloc(cap, sizeof *out);
    const char *specs[] = {"mcts:iters=100000,evals=20000,opp=search,oppiters=1,settle=1,sym=1",
                           "mcts:iters=100000,evals=20000,opp=search,oppiters=1,settle=1,sym=2",
                           "mcts:iters=20,opp=greedy"};
    size_t want[] = {9, 9, 675};
    uint64_t passes[3] = {0};
    for (int k = 0; k < 3; k++) {
        pips_agent *a = pips_agent_new(g, specs[k], 1, &err);
        assert_non_null(a);
        size_t n = pips_agent_analyze(a, s, out, cap, &err);
        assert_int_equal(n, want[k]);
        for (size_t i = 0; i < n; i++) {
            if (k < 2)
                assert_true(out[i].visits > 0);
            passes[k] += out[i].visits;
        }
        pips_agent_free(a);
    }
    if (passes[1] < 4 * passes[0])
        fail_msg("sym=2: %llu passes, sym=1: %llu", (unsigned long long)passes[1],
                 (unsigned long long)passes[0]);
    expect_spec(g, "mcts:iters=200,opp=adapt,oppiters=100,settle=1,sym=1");
    expect_spec(g, "mcts:iters=200,opp=greedy,sym=2");
    assert_null(pips_agent_new(g, "mcts:sym=3", 1, &err));
    assert_non_null(strstr(err.msg, "sym"));
    free(out);
    pips_state_free(g, s);
    pips_game_free(g);
    g = tree_game(0); /* no canonical form: sym is refused, naming the game */
    assert_null(pips_agent_new(g, "mcts:iters=400,opp=search,sym=2", 1, &err));
    assert_non_null(strstr(err.msg, "sym=2 needs the game's canonical form"));
    assert_non_null(strstr(err.msg, g->def->name));
    pips_game_free(g);
}

static void test_levels_per_seat_count(void **unused)
{
    (void)unused;
    static const char *const names[] = {"easy", "medium", "hard", "max"};
    for (size_t i = 0; i < pips_game_count(); i++) {
        const pips_game_def *d = pips_game_def_at(i);
        for (int np = 2; np <= 6; np++) {
            char kv[32];
            snprintf(kv, sizeof kv, "players=%d", np);
            const char *opts[] = {kv};
            pips_error err;
            pips_game *g = pips_game_new(d->name, opts, 1, NULL, &err);
            if (!g)
                continue; /* the game does not seat np */
            for (int l = 0; l < 4; l++) {
                const char *want = pips_agent_level_spec(g, names[l]);
                assert_non_null(want);
                pips_agent *a = pips_agent_new(g, names[l], 1, &err);
                if (!a)
                    fail_msg("%s with %d seats, %s ('%s'): %s", d->name, np, names[l], want,
                             err.msg);
                pips_agent *b = pips_agent_new(g, want, 1, &err);
                assert_non_null(b);
                assert_string_equal(pips_agent_spec(a), pips_agent_spec(b));
                pips_agent_free(a);
                pips_agent_free(b);
            }
            pips_game_free(g);
        }
    }
    pips_game *g = tree_game(0);
    pips_error err;
    assert_null(pips_agent_new(g, "alphabeta:depth=2", 1, &err));
    assert_int_equal(err.code, PIPS_ERR_UNSUPPORTED);
    assert_non_null(strstr(err.msg, "cannot play 3 seats"));
    assert_non_null(strstr(err.msg, "kinds that can: random, greedy, expectimax, mcts, brs"));
    assert_null(pips_agent_new(g, "oracle", 1, &err));
    assert_non_null(strstr(err.msg, "oracle cannot play 3 seats"));
    assert_non_null(strstr(err.msg, "kinds that can:"));
    pips_game_free(g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_brs_known_answer),
        cmocka_unit_test(test_brs_ttd),
        cmocka_unit_test(test_mcts_opp_greedy),
        cmocka_unit_test(test_mcts_opp_softmax),
        cmocka_unit_test(test_mcts_opp_topk),
        cmocka_unit_test(test_mcts_depth_cap),
        cmocka_unit_test(test_mcts_rollout),
        cmocka_unit_test(test_mcts_rerank),
        cmocka_unit_test(test_mcts_rerun_halve),
        cmocka_unit_test(test_mcts_rerun_shape),
        cmocka_unit_test(test_mcts_rerun_opp),
        cmocka_unit_test(test_mcts_opp_search_and_adapt),
        cmocka_unit_test(test_mcts_solver_ties_take_the_mean),
        cmocka_unit_test(test_mcts_order_eval),
        cmocka_unit_test(test_mcts_progressive_history),
        cmocka_unit_test(test_mcts_root_draws),
        cmocka_unit_test(test_mcts_opp_search_sampled),
        cmocka_unit_test(test_analyze_max),
        cmocka_unit_test(test_mcts_exact),
        cmocka_unit_test(test_mcts_exact_pick),
        cmocka_unit_test(test_mcts_exact_pickply),
        cmocka_unit_test(test_mcts_exact_pickobs),
        cmocka_unit_test(test_mcts_greedy_ties_only),
        cmocka_unit_test(test_mcts_exact_prior),
        cmocka_unit_test(test_model_solve_per_move),
        cmocka_unit_test(test_mcts_chance_stratify),
        cmocka_unit_test(test_mcts_evals_cap),
        cmocka_unit_test(test_mcts_opp_runs_and_evals),
        cmocka_unit_test(test_mcts_opp_sample),
        cmocka_unit_test(test_mcts_sym),
        cmocka_unit_test(test_levels_per_seat_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
