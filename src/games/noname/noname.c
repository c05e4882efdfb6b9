/*
 * noname.c — Noname (David Morgan-Mar) as a pips game under the project's
 * rulings NON-R1..R17, E1..E2 (explained in docs/games/noname.md): options, the game
 * interface, move notation and position text (NON §11), hashing, rendering
 * and the explanation API of noname.h. The geometry and rules core lives in
 * noname_geom.c, the candidate generator in noname_cand.c.
 *
 * Invariants: a rejected move or state text leaves the state untouched;
 * state_from_text rebuilds every cached value with the code apply uses, so
 * the text round-trips to a byte-equal state.
 */
#include "games/noname/noname.h"
#include "games/noname/noname_impl.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static const nn_config *cfg(const pips_game *g) { return g->config; }

static int colour_index(char ch)
{
    for (int i = 0; i < NN_COLOURS; i++)
        if (NN_COLOUR_CH[i] == ch)
            return i;
    return -1;
}

static int size_index(char ch)
{
    return ch == 'S' ? 1 : ch == 'M' ? 2 : ch == 'L' ? 3 : 0;
}

/* Default seating: r, b, g, y, then k w p o (NON §2 Colours). */
static const uint8_t DEFAULT_SEATS[NN_MAX_SEATS] = {0, 3, 2, 1, 4, 5, 6, 7};

/* ---- options (NON §9) ---- */

static const char *const CAPTURE_TO[] = {"colour", "placer", NULL};
static const char *const MULTI_ATTACKER[] = {"colour", "any", "off", NULL};
static const char *const AUTO_WORD[] = {"auto", NULL};

static const pips_option_def nn_options[] = {
    {"players", "2", "players, one colour each", .type = PIPS_OPT_INT, .min = 2, .max = 8},
    {"capture_to", "colour",
     "a captured piece goes to the player of the placed piece's colour, or to the placer",
     .type = PIPS_OPT_CHOICE, .choices = CAPTURE_TO},
    {"multi_attacker", "colour",
     "a medium or large needs 2 attackers of the capturing colour, of any colours, or none (E2)",
     .type = PIPS_OPT_CHOICE, .choices = MULTI_ATTACKER},
    {"turn_cap", "auto", "turns (skips included) before the game ends; 0 = none, auto = 150 x players",
     .type = PIPS_OPT_INT, .min = 0, .max = 1000000, .choices = AUTO_WORD},
    {"table", "600.0x600.0", "the table's width and height in mm", .type = PIPS_OPT_TEXT,
     .pattern = "WxH in mm with at most one decimal, each 100.0..5000.0"},
    {"first_player", "1", "the seat that places first (at most players)", .type = PIPS_OPT_INT,
     .min = 1, .max = 8},
    {"candidates", "16", "candidate moves per AI call (an engine setting, not a rule)",
     .type = PIPS_OPT_INT, .min = 4, .max = NN_CAND_MAX},
};

/* Reads a number with at most one fractional digit into tenths (NON §11). */
static bool read_tenths(const char **pp, long max_tenths, long *out, const char **why)
{
    const char *p = *pp;
    long v = 0;
    int digits = 0;
    if (*p == '-' || *p == '+') {
        *why = "signs are not allowed";
        return false;
    }
    while (*p >= '0' && *p <= '9') {
        if (v > 100000000L) {
            *why = "the number is too large";
            return false;
        }
        v = v * 10 + (*p++ - '0');
        digits++;
    }
    if (!digits) {
        *why = "expected a number such as 300.0";
        return false;
    }
    v *= 10;
    if (*p == '.') {
        p++;
        if (*p < '0' || *p > '9') {
            *why = "expected a digit after the decimal point";
            return false;
        }
        v += *p++ - '0';
        if (*p >= '0' && *p <= '9') {
            *why = "at most one fractional digit (0.1 mm, 0.1 degree)";
            return false;
        }
    }
    if (*p == 'e' || *p == 'E') {
        *why = "exponents are not allowed";
        return false;
    }
    if (v > max_tenths) {
        *why = "the number is out of range";
        return false;
    }
    *out = v;
    *pp = p;
    return true;
}

static bool nn_configure(const pips_game *g, void *config, pips_error *err)
{
    nn_config *c = config;
    memset(c, 0, sizeof *c);
    long v;
    if (!pips_game_opt_int(g, "players", &v, err))
        return false;
    c->players = (int)v;
    int pick;
    if (!pips_game_opt_choice(g, "capture_to", &pick, err))
        return false;
    c->capture_to = pick == 0 ? NN_CAPTURE_COLOUR : NN_CAPTURE_PLACER;
    if (!pips_game_opt_choice(g, "multi_attacker", &pick, err))
        return false;
    c->multi_attacker = pick == 0 ? NN_MULTI_COLOUR : pick == 1 ? NN_MULTI_ANY : NN_MULTI_OFF;
    const char *val;
    val = pips_options_get(&g->options, "turn_cap");
    if (!strcmp(val, "auto"))
        c->turn_cap = 150 * c->players;
    else if (pips_game_opt_int(g, "turn_cap", &v, err))
        c->turn_cap = (int)v;
    else
        return false;
    val = pips_options_get(&g->options, "table");
    const char *p = val, *why = "";
    long w, h;
    if (!read_tenths(&p, 50000, &w, &why) || *p++ != 'x' || !read_tenths(&p, 50000, &h, &why) ||
        *p)
        return pips_fail(err, PIPS_ERR_ARG,
                         "option 'table': '%.64s' is not WxH in mm such as 600.0x600.0%s%s",
                         val, *why ? ": " : "", why);
    if (w < 1000 || h < 1000)
        return pips_fail(err, PIPS_ERR_ARG,
                         "option 'table': '%.64s': each side must be 100.0..5000.0 mm", val);
    c->width = (int)w;
    c->height = (int)h;
    if (!pips_option_int(&g->options, "first_player", 1, c->players, &v, err))
        return false;
    c->first_player = (int)v - 1;
    if (!pips_game_opt_int(g, "candidates", &v, err))
        return false;
    c->candidates = (int)v;
    return true;
}

static int nn_num_players(const pips_game *g) { return cfg(g)->players; }

static size_t nn_max_moves(const pips_game *g) { return (size_t)cfg(g)->candidates; }

static void nn_initial(const pips_game *g, void *state)
{
    const nn_config *c = cfg(g);
    nn_state *s = state;
    memset(s, 0, sizeof *s);
    nn_table_reset(s, c->width, c->height);
    s->n_seats = (uint8_t)c->players;
    for (int i = 0; i < c->players; i++) {
        s->seat_colour[i] = DEFAULT_SEATS[i];
        for (int z = 1; z <= 3; z++)
            s->pad[i][DEFAULT_SEATS[i]][z] = NN_PER_SIZE;
    }
    s->turn = 1;
    s->to_move = (uint8_t)c->first_player;
    nn_refresh_over(c, s);
}

static int nn_to_move(const pips_game *g, const void *state)
{
    (void)g;
    const nn_state *s = state;
    return s->over ? PIPS_OVER : s->to_move;
}

static bool nn_check_move(const pips_game *g, const void *state, pips_move m, pips_error *err)
{
    nn_place p;
    if (!nn_decode(m, &p))
        return pips_fail(err, PIPS_ERR_ARG, "not a Noname move (0x%llx)", (unsigned long long)m);
    return nn_check(cfg(g), state, &p, err);
}

static void nn_apply(const pips_game *g, void *state, pips_move m)
{
    nn_place p;
    if (nn_decode(m, &p))
        nn_play(cfg(g), state, &p);
}

/* NON-R15: the highest total wins; tied leaders share the win equally. */
static void nn_returns(const pips_game *g, const void *state, double *out)
{
    const nn_state *s = state;
    int sc[NN_MAX_SEATS], best = 0, n_best = 0;
    nn_scores(s, sc);
    int n = cfg(g)->players;
    for (int i = 0; i < n; i++)
        if (i == 0 || sc[i] > best)
            best = sc[i];
    for (int i = 0; i < n; i++)
        n_best += sc[i] == best;
    for (int i = 0; i < n; i++)
        out[i] = sc[i] == best ? 1.0 / n_best : 0.0;
}

/* With three seats or more: when the mover's placement may end the game
 * (every other pad is empty and the mover holds one piece, NON §8, or the
 * turn cap is reached), can some candidate end it with the mover alone in
 * the lead (NON-R15)? The candidates come from a generator seeded by the
 * position, so the answer is a function of the state. */
static bool mover_wins_last_placement(const pips_game *g, const nn_state *s)
{
    const nn_config *c = cfg(g);
    int me = s->to_move;
    bool last = c->turn_cap && s->turn == (uint32_t)c->turn_cap;
    if (!last) {
        if (nn_pad_total(s, me) != 1)
            return false;
        for (int i = 0; i < s->n_seats; i++)
            if (i != me && nn_pad_total(s, i))
                return false;
    }
    pips_move moves[NN_CAND_MAX];
    pips_rng rng;
    pips_rng_derive(&rng, 0x6e6e6c617374ull, g->def->hash(g, s));
    size_t n = nn_candidates(c, s, &rng, moves);
    nn_state child;
    for (size_t k = 0; k < n; k++) {
        nn_place p;
        if (!nn_decode(moves[k], &p))
            continue;
        memcpy(&child, s, sizeof child);
        nn_play(c, &child, &p);
        if (!child.over)
            continue;
        double r[NN_MAX_SEATS];
        nn_returns(g, &child, r);
        if (r[me] == 1.0)
            return true;
    }
    return false;
}

/* With three seats or more the seat that places last usually wins (it
 * moves when nobody can answer), so the evaluation counts it this many
 * points ahead: fitted on greedy games and pilots (docs/ai.md, "Noname at
 * three and four seats"). */
static int last_placer_points(int players)
{
    return players == 3 ? 8 : 14;
}

/* The seat expected to make the game's last placement if no more captures
 * come: the most pieces on its pad, and of those tied the last in turn
 * order from the mover (each pad drains one piece a turn; NON §3, §8). */
static int last_placer(const nn_state *s)
{
    int best = s->to_move, most = -1;
    for (int k = 0; k < s->n_seats; k++) {
        int seat = (s->to_move + k) % s->n_seats, p = nn_pad_total(s, seat);
        if (p >= most) {
            most = p;
            best = seat;
        }
    }
    return best;
}

/* A heuristic for agents: each seat's table score against the best other
 * seat's, squashed into (0, 1). With three seats or more, a mover whose
 * last placement wins has the game (1, the others 0, as if it were over),
 * so the seat before it scores the position 0, below every open one,
 * rather than by the table as it stands (issue 24); otherwise the seat
 * expected to place last gets a bonus on its table score. Two seats keep
 * the plain values their measured levels were tuned on. */
static void nn_evaluate(const pips_game *g, const void *state, double *out)
{
    int sc[NN_MAX_SEATS], n = cfg(g)->players;
    const nn_state *s = state;
    if (n >= 3 && mover_wins_last_placement(g, s)) {
        for (int i = 0; i < n; i++)
            out[i] = i == s->to_move ? 1.0 : 0.0;
        return;
    }
    nn_scores(state, sc);
    if (n >= 3)
        sc[last_placer(s)] += last_placer_points(n);
    for (int i = 0; i < n; i++) {
        int best_other = 0;
        bool any = false;
        for (int j = 0; j < n; j++)
            if (j != i && (!any || sc[j] > best_other)) {
                best_other = sc[j];
                any = true;
            }
        out[i] = 0.5 + 0.5 * tanh((sc[i] - best_other) / 10.0);
    }
}

/* Move ordering for searches (best first, the progressive widening's order):
 * the mover's table score lead after the move, in points times 16, plus 8
 * for a capture (it also fills a pad). One placement per move on a copy,
 * as greedy does. */
static void nn_order_moves(const pips_game *g, const void *state, const pips_move *moves,
                           size_t n, int *scores)
{
    const nn_state *s = state;
    nn_state child;
    int me = s->to_move, sc[NN_MAX_SEATS];
    for (size_t i = 0; i < n; i++) {
        nn_place p;
        scores[i] = INT_MIN / 2;
        if (!nn_decode(moves[i], &p))
            continue;
        memcpy(&child, s, sizeof child);
        uint32_t captured = nn_play(cfg(g), &child, &p);
        nn_scores(&child, sc);
        int best_other = INT_MIN;
        for (int o = 0; o < s->n_seats; o++)
            if (o != me && sc[o] > best_other)
                best_other = sc[o];
        scores[i] = 16 * (sc[me] - best_other) + (captured ? 8 : 0);
    }
}

static void nn_scores_hook(const pips_game *g, const void *state, int *out)
{
    (void)g;
    nn_scores(state, out);
}

static void nn_result_text(const pips_game *g, const void *state, pips_str *out)
{
    const nn_state *s = state;
    int sc[NN_MAX_SEATS], best = 0;
    nn_scores(s, sc);
    int n = cfg(g)->players;
    if (!s->over)
        pips_str_cat(out, "in progress");
    else {
        for (int i = 0; i < n; i++)
            if (i == 0 || sc[i] > best)
                best = sc[i];
        int k = 0;
        for (int i = 0; i < n; i++)
            if (sc[i] == best)
                pips_str_catf(out, "%s%c", k++ ? "+" : "", NN_COLOUR_CH[s->seat_colour[i]]);
        pips_str_cat(out, k > 1 ? " share the win" : " wins");
    }
    pips_str_cat(out, " (");
    for (int i = 0; i < n; i++)
        pips_str_catf(out, "%s%c %d", i ? ", " : "", NN_COLOUR_CH[s->seat_colour[i]], sc[i]);
    pips_str_cat(out, ")");
}

/* The lab's cap rate: over by the turn cap (NON-R13), not by empty pads or
 * a round of skips. */
static bool nn_capped(const pips_game *g, const void *state)
{
    const nn_state *s = state;
    const nn_config *c = cfg(g);
    return s->over && !nn_pads_empty(s) && s->passes < s->n_seats && c->turn_cap &&
           s->turn > (uint32_t)c->turn_cap;
}

/* ---- notation (NON §11) ---- */

static int fmt_place(const nn_place *p, char *buf, size_t cap)
{
    if (p->skip)
        return snprintf(buf, cap, "--");
    if (p->lying)
        return snprintf(buf, cap, "%c%c@%d.%d,%d.%d>%d.%d", NN_COLOUR_CH[p->colour],
                        NN_SIZE_CH[p->size], p->x / 10, p->x % 10, p->y / 10, p->y % 10,
                        p->angle / 10, p->angle % 10);
    if (p->angle)
        return snprintf(buf, cap, "%c%c@%d.%d,%d.%d/U%d.%d", NN_COLOUR_CH[p->colour],
                        NN_SIZE_CH[p->size], p->x / 10, p->x % 10, p->y / 10, p->y % 10,
                        p->angle / 10, p->angle % 10);
    return snprintf(buf, cap, "%c%c@%d.%d,%d.%d/U", NN_COLOUR_CH[p->colour], NN_SIZE_CH[p->size],
                    p->x / 10, p->x % 10, p->y / 10, p->y % 10);
}

static void nn_move_to_text(const pips_game *g, const void *state, pips_move m, char *buf)
{
    (void)g;
    (void)state;
    nn_place p;
    if (!nn_decode(m, &p))
        snprintf(buf, PIPS_MOVE_TEXT_MAX, "?");
    else
        fmt_place(&p, buf, PIPS_MOVE_TEXT_MAX);
}

/* Parses one placement at *pp (no surrounding spaces); advances *pp. */
static bool parse_place(const char **pp, nn_place *out, const char *text, pips_error *err)
{
    const char *p = *pp, *why = "";
    memset(out, 0, sizeof *out);
    if (p[0] == '-' && p[1] == '-') {
        out->skip = true;
        *pp = p + 2;
        return true;
    }
    int col = colour_index(*p);
    if (col < 0)
        return pips_fail(err, PIPS_ERR_ARG,
                         "move '%.60s': unknown colour '%c' (colours: r y g b k w p o c x)",
                         text, *p ? *p : ' ');
    p++;
    int z = size_index(*p);
    if (!z)
        return pips_fail(err, PIPS_ERR_ARG, "move '%.60s': expected a size S, M or L after '%c'",
                         text, NN_COLOUR_CH[col]);
    p++;
    if (*p++ != '@')
        return pips_fail(err, PIPS_ERR_ARG, "move '%.60s': expected '@' after the size", text);
    long x, y, a = 0;
    if (!read_tenths(&p, NN_MAX_COORD, &x, &why))
        return pips_fail(err, PIPS_ERR_ARG, "move '%.60s': x coordinate: %s", text, why);
    if (*p++ != ',')
        return pips_fail(err, PIPS_ERR_ARG, "move '%.60s': expected ',' between x and y", text);
    if (!read_tenths(&p, NN_MAX_COORD, &y, &why))
        return pips_fail(err, PIPS_ERR_ARG, "move '%.60s': y coordinate: %s", text, why);
    bool lying;
    if (p[0] == '/' && p[1] == 'U') {
        lying = false;
        p += 2;
        if (*p && *p != ' ') {
            if (!read_tenths(&p, 1000000, &a, &why))
                return pips_fail(err, PIPS_ERR_ARG, "move '%.60s': rotation: %s", text, why);
            if (a > 3599)
                return pips_fail(err, PIPS_ERR_ARG,
                                 "move '%.60s': rotation %ld.%ld is out of range 0.0..359.9",
                                 text, a / 10, a % 10);
            a %= 900; /* NON §11: theta is stored mod 90 */
        }
    } else if (*p == '>') {
        lying = true;
        p++;
        if (!read_tenths(&p, 1000000, &a, &why))
            return pips_fail(err, PIPS_ERR_ARG, "move '%.60s': heading: %s", text, why);
        if (a > 3599)
            return pips_fail(err, PIPS_ERR_ARG,
                             "move '%.60s': heading %ld.%ld is out of range 0.0..359.9", text,
                             a / 10, a % 10);
    } else {
        return pips_fail(err, PIPS_ERR_ARG,
                         "move '%.60s': expected '/U' (upright) or '>' and a heading (lying) "
                         "after the coordinates",
                         text);
    }
    out->colour = col;
    out->size = z;
    out->lying = lying;
    out->x = (int)x;
    out->y = (int)y;
    out->angle = (int)a;
    *pp = p;
    return true;
}

static bool nn_move_from_text(const pips_game *g, const void *state, const char *text,
                              pips_move *m, pips_error *err)
{
    (void)g;
    (void)state;
    const char *p = text;
    while (*p == ' ')
        p++;
    if (!*p)
        return pips_fail(err, PIPS_ERR_ARG, "empty move (write -- to skip)");
    nn_place pl;
    if (!parse_place(&p, &pl, text, err))
        return false;
    while (*p == ' ')
        p++;
    if (*p)
        return pips_fail(err, PIPS_ERR_ARG, "move '%.60s': unexpected text '%.20s' at the end",
                         text, p);
    *m = nn_encode(&pl);
    return true;
}

/* ---- position text (NON §11 Positions) ----
 * One line of space-separated fields:
 *   players=2 capture_to=colour multi_attacker=colour turn_cap=300
 *   table=600.0x600.0 first_player=1 seats r,b turn 1 to r passes 0
 *   pads r:rS5,rM5,rL5 b:bS5,bM5,bL5 table #1 bM@250.0,300.0/U ...
 * An empty pad is "g:-", an empty table "table -". */

static void option_text(const nn_config *c, int k, char *buf, size_t cap)
{
    switch (k) {
    case 0: snprintf(buf, cap, "players=%d", c->players); break;
    case 1: snprintf(buf, cap, "capture_to=%s", c->capture_to ? "placer" : "colour"); break;
    case 2:
        snprintf(buf, cap, "multi_attacker=%s",
                 c->multi_attacker == NN_MULTI_COLOUR ? "colour"
                 : c->multi_attacker == NN_MULTI_ANY  ? "any"
                                                      : "off");
        break;
    case 3: snprintf(buf, cap, "turn_cap=%d", c->turn_cap); break;
    case 4:
        snprintf(buf, cap, "table=%d.%dx%d.%d", c->width / 10, c->width % 10, c->height / 10,
                 c->height % 10);
        break;
    default: snprintf(buf, cap, "first_player=%d", c->first_player + 1); break;
    }
}

static void piece_place(const nn_piece *q, nn_place *p)
{
    memset(p, 0, sizeof *p);
    p->colour = q->colour;
    p->size = q->size;
    p->lying = q->lying;
    p->x = q->x;
    p->y = q->y;
    p->angle = q->angle;
}

static void nn_state_to_text(const pips_game *g, const void *state, pips_str *out)
{
    const nn_config *c = cfg(g);
    const nn_state *s = state;
    char buf[96];
    for (int k = 0; k < 6; k++) {
        option_text(c, k, buf, sizeof buf);
        pips_str_catf(out, "%s ", buf);
    }
    pips_str_cat(out, "seats ");
    for (int i = 0; i < s->n_seats; i++)
        pips_str_catf(out, "%s%c", i ? "," : "", NN_COLOUR_CH[s->seat_colour[i]]);
    pips_str_catf(out, " turn %u to %c passes %d pads", s->turn,
                  NN_COLOUR_CH[s->seat_colour[s->to_move]], s->passes);
    for (int i = 0; i < s->n_seats; i++) {
        pips_str_catf(out, " %c:", NN_COLOUR_CH[s->seat_colour[i]]);
        bool any = false;
        for (int col = 0; col < NN_COLOURS; col++)
            for (int z = 1; z <= 3; z++)
                if (s->pad[i][col][z]) {
                    pips_str_catf(out, "%s%c%c%d", any ? "," : "", NN_COLOUR_CH[col],
                                  NN_SIZE_CH[z], s->pad[i][col][z]);
                    any = true;
                }
        if (!any)
            pips_str_cat(out, "-");
    }
    pips_str_cat(out, " table");
    if (!s->n_table)
        pips_str_cat(out, " -");
    for (int i = 0; i < s->n_table; i++) {
        nn_place p;
        piece_place(&s->table[i], &p);
        fmt_place(&p, buf, sizeof buf);
        pips_str_catf(out, " #%u %s", s->table[i].id, buf);
    }
}

/* Copies the next space-delimited token of at most cap-1 chars. */
static bool next_token(const char **pp, char *tok, size_t cap)
{
    const char *p = *pp;
    while (*p == ' ' || *p == '\n' || *p == '\t')
        p++;
    size_t n = 0;
    while (*p && *p != ' ' && *p != '\n' && *p != '\t') {
        if (n + 1 >= cap)
            return false;
        tok[n++] = *p++;
    }
    tok[n] = '\0';
    *pp = p;
    return n > 0;
}

static bool expect_word(const char **pp, const char *word, pips_error *err)
{
    char tok[64];
    if (!next_token(pp, tok, sizeof tok) || strcmp(tok, word))
        return pips_fail(err, PIPS_ERR_ARG, "state: expected '%s'", word);
    return true;
}

static bool nn_state_from_text(const pips_game *g, const char *text, void *state,
                               pips_error *err)
{
    const nn_config *c = cfg(g);
    nn_state s;
    memset(&s, 0, sizeof s);
    nn_table_reset(&s, c->width, c->height);
    const char *p = text;
    char tok[128], want[96];
    for (int k = 0; k < 6; k++) {
        option_text(c, k, want, sizeof want);
        if (!next_token(&p, tok, sizeof tok))
            return pips_fail(err, PIPS_ERR_ARG, "state: expected the option '%s'", want);
        if (strcmp(tok, want))
            return pips_fail(err, PIPS_ERR_ARG,
                             "state: '%.60s' does not match this game's option '%s'", tok,
                             want);
    }
    if (!expect_word(&p, "seats", err) || !next_token(&p, tok, sizeof tok))
        return pips_fail(err, PIPS_ERR_ARG, "state: expected 'seats' and the seat colours");
    {
        int n = 0;
        for (const char *q = tok; *q; q++) {
            int col = colour_index(*q);
            if (col < 0)
                return pips_fail(err, PIPS_ERR_ARG, "state: seats: unknown colour '%c'", *q);
            if (n >= c->players)
                return pips_fail(err, PIPS_ERR_ARG, "state: more seats than players=%d",
                                 c->players);
            for (int i = 0; i < n; i++)
                if (s.seat_colour[i] == col)
                    return pips_fail(err, PIPS_ERR_ARG, "state: seats: colour '%c' twice", *q);
            s.seat_colour[n++] = (uint8_t)col;
            if (q[1] == ',')
                q++;
            else if (q[1])
                return pips_fail(err, PIPS_ERR_ARG, "state: seats: expected r,b,...");
        }
        if (n != c->players)
            return pips_fail(err, PIPS_ERR_ARG, "state: %d seats but players=%d", n,
                             c->players);
        s.n_seats = (uint8_t)n;
    }
    long v;
    if (!expect_word(&p, "turn", err))
        return false;
    if (!next_token(&p, tok, sizeof tok) || !pips_parse_int(tok, 1, 100000000, &v))
        return pips_fail(err, PIPS_ERR_ARG, "state: turn: expected a number from 1");
    s.turn = (uint32_t)v;
    if (!expect_word(&p, "to", err))
        return false;
    if (!next_token(&p, tok, sizeof tok) || tok[1] ||
        nn_seat_of_colour(&s, colour_index(tok[0])) < 0)
        return pips_fail(err, PIPS_ERR_ARG, "state: to: expected a seated colour");
    s.to_move = (uint8_t)nn_seat_of_colour(&s, colour_index(tok[0]));
    if (!expect_word(&p, "passes", err))
        return false;
    if (!next_token(&p, tok, sizeof tok) || !pips_parse_int(tok, 0, c->players, &v))
        return pips_fail(err, PIPS_ERR_ARG, "state: passes: expected 0..%d", c->players);
    s.passes = (uint8_t)v;
    if (!expect_word(&p, "pads", err))
        return false;
    int used[NN_COLOURS][4] = {{0}};
    for (int i = 0; i < s.n_seats; i++) {
        if (!next_token(&p, tok, sizeof tok) || colour_index(tok[0]) != s.seat_colour[i] ||
            tok[1] != ':')
            return pips_fail(err, PIPS_ERR_ARG, "state: pads: expected '%c:' (seat %d)",
                             NN_COLOUR_CH[s.seat_colour[i]], i + 1);
        const char *q = tok + 2;
        if (!strcmp(q, "-"))
            continue;
        while (*q) {
            int col = colour_index(q[0]), z = q[0] ? size_index(q[1]) : 0;
            if (col < 0 || !z || q[2] < '1' || q[2] > '5')
                return pips_fail(err, PIPS_ERR_ARG,
                                 "state: pad of %c: expected entries like bS2 at '%.20s'",
                                 NN_COLOUR_CH[s.seat_colour[i]], q);
            if (nn_seat_of_colour(&s, col) < 0)
                return pips_fail(err, PIPS_ERR_ARG,
                                 "state: pad of %c: colour '%c' has no seat",
                                 NN_COLOUR_CH[s.seat_colour[i]], q[0]);
            if (s.pad[i][col][z])
                return pips_fail(err, PIPS_ERR_ARG, "state: pad of %c: %c%c listed twice",
                                 NN_COLOUR_CH[s.seat_colour[i]], q[0], q[1]);
            s.pad[i][col][z] = (uint8_t)(q[2] - '0');
            used[col][z] += q[2] - '0';
            q += 3;
            if (*q == ',' && q[1])
                q++;
            else if (*q)
                return pips_fail(err, PIPS_ERR_ARG, "state: pad of %c: expected ',' at '%.20s'",
                                 NN_COLOUR_CH[s.seat_colour[i]], q);
        }
    }
    if (!expect_word(&p, "table", err))
        return false;
    const char *save = p;
    if (next_token(&p, tok, sizeof tok) && !strcmp(tok, "-")) {
        if (next_token(&p, tok, sizeof tok))
            return pips_fail(err, PIPS_ERR_ARG, "state: unexpected '%.40s' after 'table -'",
                             tok);
    } else {
        p = save;
        while (next_token(&p, tok, sizeof tok)) {
            if (tok[0] != '#' || !pips_parse_int(tok + 1, 1, 100000000, &v))
                return pips_fail(err, PIPS_ERR_ARG, "state: table: expected #id at '%.40s'",
                                 tok);
            uint32_t id = (uint32_t)v;
            if ((s.n_table && id <= s.table[s.n_table - 1].id) || id >= s.turn)
                return pips_fail(err, PIPS_ERR_ARG,
                                 "state: table: #%u: ids must increase and stay below the "
                                 "turn number %u",
                                 id, s.turn);
            if (s.n_table >= NN_MAX_TABLE)
                return pips_fail(err, PIPS_ERR_ARG, "state: table: too many pieces");
            if (!next_token(&p, tok, sizeof tok))
                return pips_fail(err, PIPS_ERR_ARG, "state: table: #%u has no piece", id);
            const char *q = tok;
            nn_place pl;
            pips_error perr;
            if (!parse_place(&q, &pl, tok, &perr))
                return pips_fail(err, PIPS_ERR_ARG, "state: table: #%u: %s", id, perr.msg);
            if (pl.skip || *q)
                return pips_fail(err, PIPS_ERR_ARG, "state: table: #%u: '%.40s' is not a piece",
                                 id, tok);
            if (nn_seat_of_colour(&s, pl.colour) < 0)
                return pips_fail(err, PIPS_ERR_ARG, "state: table: #%u: colour '%c' has no seat",
                                 id, NN_COLOUR_CH[pl.colour]);
            nn_piece pc;
            nn_build_piece(&pc, &pl, id);
            if (nn_outside(&pc, c->width, c->height) > NN_EPS)
                return pips_fail(err, PIPS_ERR_ARG, "state: table: #%u sticks out of the table",
                                 id);
            int j = nn_first_overlap(&s, &pc);
            if (j >= 0)
                return pips_fail(err, PIPS_ERR_ARG, "state: table: #%u overlaps #%u", id,
                                 s.table[j].id);
            used[pl.colour][pl.size]++;
            nn_table_append(&s, &pc);
        }
    }
    for (int col = 0; col < NN_COLOURS; col++)
        for (int z = 1; z <= 3; z++)
            if (used[col][z] > NN_PER_SIZE)
                return pips_fail(err, PIPS_ERR_ARG,
                                 "state: %d pieces %c%c on pads and table (a colour has %d)",
                                 used[col][z], NN_COLOUR_CH[col], NN_SIZE_CH[z], NN_PER_SIZE);
    nn_recompute_targets(&s);
    nn_refresh_over(c, &s);
    memcpy(state, &s, sizeof s);
    return true;
}

static uint64_t nn_hash(const pips_game *g, const void *state)
{
    (void)g;
    const nn_state *s = state;
    uint64_t h = pips_mix64(0x6e6f6e616d65ull ^ ((uint64_t)s->turn << 16) ^
                            ((uint64_t)s->to_move << 8) ^ s->passes);
    for (int i = 0; i < s->n_seats; i++) {
        h ^= pips_zobrist_key(1000 + (uint64_t)i * 16 + s->seat_colour[i]);
        for (int col = 0; col < NN_COLOURS; col++)
            for (int z = 1; z <= 3; z++)
                if (s->pad[i][col][z])
                    h ^= pips_zobrist_key(((uint64_t)(i * NN_COLOURS + col) * 4 + (uint64_t)z) *
                                              8 +
                                          s->pad[i][col][z]);
    }
    for (int i = 0; i < s->n_table; i++) {
        const nn_piece *q = &s->table[i];
        uint64_t key = (uint64_t)q->x | (uint64_t)q->y << 16 | (uint64_t)q->angle << 32 |
                       (uint64_t)q->colour << 44 | (uint64_t)q->size << 48 |
                       (uint64_t)q->lying << 50;
        h ^= pips_mix64(key * 0x9E3779B97F4A7C15ull ^ pips_mix64(q->id));
    }
    return h;
}

/* ---- explanation API (noname.h) ---- */

static void describe(const nn_state *s, const nn_pressure *pr, int i, noname_piece_info *o)
{
    const nn_piece *q = &s->table[i];
    memset(o, 0, sizeof *o);
    o->id = q->id;
    o->colour = NN_COLOUR_CH[q->colour];
    o->size = NN_SIZE_CH[q->size];
    o->lying = q->lying;
    o->x = q->x;
    o->y = q->y;
    o->angle = q->angle;
    if (q->lying && q->target >= 0) {
        o->target_id = s->table[q->target].id;
        o->hit_mm = q->hit_t / 10.0;
    }
    int k = 0;
    for (int col = 0; col < NN_COLOURS; col++) {
        o->points[col] = pr->points[i][col];
        o->attackers[col] = pr->attackers[i][col];
        if (pr->points[i][col] >= q->size)
            o->subdued_by[k++] = NN_COLOUR_CH[col];
    }
    o->score = nn_piece_score(s, pr, i);
    o->n_corners = q->nvert;
    for (int v = 0; v < q->nvert; v++) {
        o->corner_x[v] = q->vx[v] / 10.0;
        o->corner_y[v] = q->vy[v] / 10.0;
    }
    o->own_linked = pr->attackers[i][q->colour] > 0 ||
                    (q->lying && q->target >= 0 && s->table[q->target].colour == q->colour);
}

size_t noname_pieces(const pips_game *g, const void *state, noname_piece_info *out, size_t cap)
{
    (void)g;
    const nn_state *s = state;
    nn_pressure pr;
    nn_pressure_of(s, &pr);
    for (int i = 0; i < s->n_table && (size_t)i < cap; i++)
        describe(s, &pr, i, &out[i]);
    return s->n_table;
}

bool noname_preview_move(const pips_game *g, const void *state, pips_move m,
                         noname_preview *out, pips_error *err)
{
    const nn_state *s = state;
    nn_place p;
    memset(out, 0, sizeof *out);
    out->captured_to_seat = -1;
    if (!nn_decode(m, &p))
        return pips_fail(err, PIPS_ERR_ARG, "not a Noname move");
    if (!nn_check(cfg(g), s, &p, err))
        return false;
    out->new_id = s->turn;
    if (p.skip)
        return true;
    nn_state *t = pips_malloc(g->alloc, sizeof *t);
    if (!t)
        return pips_fail(err, PIPS_ERR_NOMEM, "out of memory previewing a move");
    memcpy(t, s, sizeof *t);
    int k = t->n_table;
    /* What the placement changes before any capture: replay the pointing step. */
    nn_piece pc;
    nn_build_piece(&pc, &p, s->turn);
    for (int i = 0; i < k; i++) {
        double h;
        if (nn_target_with(s, i, &pc, &h) == k)
            out->redirected[out->n_redirected++] = s->table[i].id;
    }
    if (p.lying) {
        /* The new attacker's own scan, before any capture. */
        nn_table_append(t, &pc);
        double h;
        int tg = nn_scan_target(t, &pc, k, &h);
        if (tg >= 0) {
            out->target_id = t->table[tg].id;
            out->hit_mm = h / 10.0;
        }
        memcpy(t, s, sizeof *t);
    }
    uint32_t victim = nn_play(cfg(g), t, &p);
    if (victim) {
        out->captured_id = victim;
        out->captured_to_seat = cfg(g)->capture_to == NN_CAPTURE_PLACER
                                    ? s->to_move
                                    : nn_seat_of_colour(s, p.colour);
    }
    pips_free(g->alloc, t);
    return true;
}

pips_move noname_make_move(char colour, char size, bool lying, int x, int y, int angle)
{
    nn_place p = {false, colour_index(colour), size_index(size), lying, x, y, angle};
    if (p.colour < 0 || !p.size || x < 0 || y < 0 || x > NN_MAX_COORD || y > NN_MAX_COORD ||
        angle < 0 || angle >= 3600)
        return PIPS_MOVE_NONE;
    if (!lying)
        p.angle %= 900;
    return nn_encode(&p);
}

int noname_move_footprint(pips_move m, double corner_x[4], double corner_y[4])
{
    nn_place p;
    if (!nn_decode(m, &p) || p.skip)
        return 0;
    nn_piece pc;
    nn_build_piece(&pc, &p, 0);
    for (int v = 0; v < pc.nvert; v++) {
        corner_x[v] = pc.vx[v] / 10.0;
        corner_y[v] = pc.vy[v] / 10.0;
    }
    return pc.nvert;
}

pips_move noname_skip(void)
{
    nn_place p = {true, 0, 0, false, 0, 0, 0};
    return nn_encode(&p);
}

/* ---- rendering ---- */

static const char *ansi_of(int col)
{
    static const char *const a[NN_COLOURS] = {"\033[1;31m", "\033[1;33m", "\033[1;32m",
                                              "\033[1;34m", "\033[1;90m", "\033[1;37m",
                                              "\033[1;35m", "\033[38;5;208m", "\033[1;36m",
                                              "\033[2m"};
    return a[col];
}

/* The plot is RW x RH characters: with the frame, the mm rulers (x under it,
 * y on its right) and the legend line it fits an 80x24 terminal, and a
 * terminal cell (about twice as tall as wide) keeps a square table roughly
 * square. */
#define RW 60
#define RH 20

/* The ruler's step in 0.1 mm: the smallest 1, 2 or 5 x 10^k mm such that
 * labels `span` 0.1 mm apart would be at least `cells` cells apart. */
static int ruler_step(int span, int plot_cells, int cells)
{
    double need = (double)span * cells / plot_cells; /* 0.1 mm */
    for (int unit = 10;; unit *= 10)
        for (int m = 0; m < 3; m++) {
            int step = unit * (m == 0 ? 1 : m == 1 ? 2 : 5);
            if (step >= need)
                return step;
        }
}

/* The right border of plot row r (0 at the top), with a tick and the y it
 * reaches when a multiple of the ruler's step falls in the row. */
static void render_right_edge(const nn_config *c, int r, const pips_render_opts *ro,
                              pips_str *out)
{
    int step = ruler_step(c->height, RH, 2);
    /* row r covers y in [lo, hi) of 0.1 mm */
    int lo = (int)((long)c->height * (RH - 1 - r) / RH), hi = (int)((long)c->height * (RH - r) / RH);
    int mark = (lo + step - 1) / step * step;
    if (r == 0)
        mark = c->height / step * step; /* the top row also holds y = H itself */
    if (mark >= lo && (mark < hi || (r == 0 && mark <= hi)))
        pips_str_catf(out, "%s %g\n", ro->unicode ? "┤" : "+", mark / 10.0);
    else
        pips_str_catf(out, "%s\n", ro->unicode ? "│" : "|");
}

/* The x ruler under the plot: the bottom border with a tick under every
 * multiple of the step, then a line with their values in mm. */
static void render_x_ruler(const nn_config *c, const pips_render_opts *ro, pips_str *out)
{
    int step = ruler_step(c->width, RW, 8);
    char labels[RW + 16];
    bool tick[RW + 1] = {false};
    memset(labels, ' ', sizeof labels);
    int end = 0;
    for (int x = 0; x <= c->width; x += step) {
        int col = (int)((long)x * RW / c->width);
        char text[16];
        int n = snprintf(text, sizeof text, "%g", x / 10.0);
        if (col + n > RW + 6) /* past the y labels' column */
            break;
        tick[col] = true;
        memcpy(labels + col + 1 - (col > 0), text, (size_t)n);
        end = col + 1 - (col > 0) + n;
    }
    pips_str_cat(out, ro->unicode ? "└" : "+");
    for (int k = 0; k < RW; k++)
        pips_str_cat(out, tick[k] && k > 0 ? (ro->unicode ? "┴" : "+") : (ro->unicode ? "─" : "-"));
    pips_str_catf(out, "%s\n%.*s mm\n", ro->unicode ? "┘" : "+", end, labels);
}

static void nn_render(const pips_game *g, const void *state, const pips_render_opts *ro,
                      pips_str *out)
{
    const nn_config *c = cfg(g);
    const nn_state *s = state;
    /* The plot: one cell per (W/RW) x (H/RH) of table, y upward. */
    char cell[RH][RW];
    int8_t owner[RH][RW];
    memset(cell, ' ', sizeof cell);
    memset(owner, -1, sizeof owner);
    for (int i = 0; i < s->n_table; i++) {
        const nn_piece *q = &s->table[i];
        int col = (int)((double)q->x * RW / c->width), row = (int)((double)q->y * RH / c->height);
        if (col >= RW) col = RW - 1;
        if (row >= RH) row = RH - 1;
        row = RH - 1 - row;
        char mark = 'o'; /* attackers: 1..8, the heading's octant, drawn below */
        if (q->lying)
            mark = (char)(1 + ((q->angle + 225) / 450) % 8);
        char idt[16];
        int n = snprintf(idt, sizeof idt, "%c%u", mark, q->id);
        /* Nearest free span for the label, so labels never overwrite each other. */
        static const int drs[5] = {0, 1, -1, 2, -2}, dcs[9] = {0, -1, 1, -2, 2, -3, 3, -4, 4};
        int at_r = row, at_c = col < RW - n ? col : RW - n;
        bool placed = false;
        for (int a = 0; a < 5 && !placed; a++)
            for (int b = 0; b < 9 && !placed; b++) {
                int r0 = row + drs[a], c0 = (col < RW - n ? col : RW - n) + dcs[b];
                if (r0 < 0 || r0 >= RH || c0 < 0 || c0 + n > RW)
                    continue;
                bool free_span = true;
                for (int k = 0; k < n && free_span; k++)
                    free_span = cell[r0][c0 + k] == ' ';
                if (free_span) {
                    at_r = r0;
                    at_c = c0;
                    placed = true;
                }
            }
        for (int k = 0; k < n && at_c + k < RW; k++) {
            cell[at_r][at_c + k] = idt[k];
            owner[at_r][at_c + k] = (int8_t)q->colour;
        }
    }
    const char *h = ro->unicode ? "─" : "-", *v = ro->unicode ? "│" : "|";
    pips_str_cat(out, ro->unicode ? "┌" : "+");
    for (int k = 0; k < RW; k++) pips_str_cat(out, h);
    pips_str_cat(out, ro->unicode ? "┐\n" : "+\n");
    for (int r = 0; r < RH; r++) {
        pips_str_cat(out, v);
        for (int k = 0; k < RW; k++) {
            static const char *const uni[8] = {"→", "↗", "↑", "↖", "←", "↙", "↓", "↘"};
            static const char *const asc[8] = {">", "/", "^", "\\", "<", "/", "v", "\\"};
            char ch[2] = {cell[r][k], '\0'};
            const char *glyph = ch;
            unsigned octant = (unsigned char)cell[r][k];
            if (octant >= 1 && octant <= 8)
                glyph = ro->unicode ? uni[octant - 1] : asc[octant - 1];
            if (ro->colour && owner[r][k] >= 0)
                pips_str_catf(out, "%s%s\033[0m", ansi_of(owner[r][k]), glyph);
            else
                pips_str_cat(out, glyph);
        }
        render_right_edge(c, r, ro, out);
    }
    render_x_ruler(c, ro, out);
    pips_str_catf(out, "table %.1f x %.1f mm (x right, y up); o upright, arrows attackers\n",
                  c->width / 10.0, c->height / 10.0);
    nn_pressure pr;
    nn_pressure_of(s, &pr);
    const char *arrow = ro->unicode ? "→" : "->";
    for (int i = 0; i < s->n_table; i++) {
        noname_piece_info info;
        describe(s, &pr, i, &info);
        nn_place p;
        char buf[64];
        piece_place(&s->table[i], &p);
        fmt_place(&p, buf, sizeof buf);
        pips_str_catf(out, "#%-3u %-24s", info.id, buf);
        if (info.lying) {
            if (info.target_id)
                pips_str_catf(out, " %s #%u (%.2f mm)", arrow, info.target_id, info.hit_mm);
            else
                pips_str_catf(out, " %s nothing", arrow);
        }
        if (info.subdued_by[0])
            pips_str_catf(out, "  subdued by %s", info.subdued_by);
        if (info.own_linked)
            pips_str_cat(out, "  own-linked");
        pips_str_catf(out, "  %+d\n", info.score);
    }
    int sc[NN_MAX_SEATS];
    nn_scores(s, sc);
    for (int i = 0; i < s->n_seats; i++) {
        pips_str_catf(out, "%c pad:", NN_COLOUR_CH[s->seat_colour[i]]);
        bool any = false;
        for (int col = 0; col < NN_COLOURS; col++)
            for (int z = 1; z <= 3; z++)
                if (s->pad[i][col][z]) {
                    pips_str_catf(out, " %c%c x%d", NN_COLOUR_CH[col], NN_SIZE_CH[z],
                                  s->pad[i][col][z]);
                    any = true;
                }
        pips_str_catf(out, "%s   score %d\n", any ? "" : " empty", sc[i]);
    }
    if (s->over) {
        pips_str rt;
        pips_str_init(&rt, NULL);
        nn_result_text(g, s, &rt);
        pips_str_catf(out, "game over after turn %u: %s\n", s->turn - 1, pips_str_cstr(&rt));
        pips_str_free(&rt);
    } else {
        pips_str_catf(out, "turn %u, %c to move\n", s->turn,
                      NN_COLOUR_CH[s->seat_colour[s->to_move]]);
    }
}

static size_t nn_candidates_hook(const pips_game *g, const void *state, pips_rng *rng,
                                 pips_move *out)
{
    const nn_state *s = state;
    if (s->over)
        return 0;
    return nn_candidates(cfg(g), s, rng, out);
}

static bool nn_random_move_hook(const pips_game *g, const void *state, pips_rng *rng,
                                pips_move *out)
{
    const nn_state *s = state;
    if (s->over)
        return false;
    *out = nn_random_move(cfg(g), s, rng);
    return true;
}

/* ---- benchmarks ---- */

/* Process CPU time: on a shared machine it measures our work, not the queue. */
static double cpu_seconds(void) { return (double)clock() / CLOCKS_PER_SEC; }

double noname_bench_playouts(const pips_game *g, int playouts, uint64_t seed)
{
    nn_state *s = pips_malloc(g->alloc, sizeof *s);
    pips_move *buf = pips_malloc(g->alloc, (size_t)cfg(g)->candidates * sizeof *buf);
    if (!s || !buf || playouts <= 0) {
        pips_free(g->alloc, s);
        pips_free(g->alloc, buf);
        return 0;
    }
    pips_rng rng;
    pips_rng_seed(&rng, seed);
    double t0 = cpu_seconds();
    /* Playouts that pick uniformly from the full candidate list (not the
     * random_move shortcut that pips_random_playout takes). */
    for (int i = 0; i < playouts; i++) {
        nn_initial(g, s);
        while (!s->over) {
            size_t n = nn_candidates(cfg(g), s, &rng, buf);
            nn_place p;
            if (!n || !nn_decode(buf[pips_rng_below(&rng, n)], &p))
                break;
            nn_play(cfg(g), s, &p);
        }
    }
    double dt = cpu_seconds() - t0;
    pips_free(g->alloc, s);
    pips_free(g->alloc, buf);
    return dt > 0 ? playouts / dt : 0;
}

double noname_bench_fast_playouts(const pips_game *g, int playouts, uint64_t seed)
{
    nn_state *s = pips_malloc(g->alloc, sizeof *s);
    pips_move *buf = pips_malloc(g->alloc, (size_t)cfg(g)->candidates * sizeof *buf);
    double rate = 0;
    if (s && buf && playouts > 0) {
        pips_rng rng;
        pips_rng_seed(&rng, seed);
        double t0 = cpu_seconds();
        for (int i = 0; i < playouts; i++) {
            nn_initial(g, s);
            pips_random_playout(g, s, &rng, buf, 100000);
        }
        double dt = cpu_seconds() - t0;
        rate = dt > 0 ? playouts / dt : 0;
    }
    pips_free(g->alloc, s);
    pips_free(g->alloc, buf);
    return rate;
}

double noname_bench_placement_us(int pieces, int placements, uint64_t seed)
{
    const char *opts[] = {"players=8"};
    pips_game *g = pips_game_new("noname", opts, 1, NULL, NULL);
    nn_state *s = pips_malloc(NULL, sizeof *s);
    nn_place *pl = pips_malloc(NULL, (size_t)(placements > 0 ? placements : 1) * sizeof *pl);
    double result = 0;
    if (g && s && pl && placements > 0) {
        const nn_config *c = cfg(g);
        pips_rng rng;
        pips_rng_seed(&rng, seed);
        nn_initial(g, s);
        /* Fill the table with random legal pieces, every seat placing its own. */
        int guard = 0;
        while (s->n_table < pieces && guard++ < 1000000) {
            int me = s->to_move, col = s->seat_colour[me], z = 1 + (int)pips_rng_below(&rng, 3);
            if (!s->pad[me][col][z])
                continue;
            nn_place p = {false, col, z, pips_rng_below(&rng, 2) == 0,
                          (int)pips_rng_below(&rng, (uint64_t)c->width + 1),
                          (int)pips_rng_below(&rng, (uint64_t)c->height + 1), 0};
            p.angle = (int)pips_rng_below(&rng, p.lying ? 3600 : 900);
            if (nn_check(c, s, &p, NULL))
                nn_play(c, s, &p);
        }
        for (int i = 0; i < placements; i++) {
            int me = s->to_move, col = s->seat_colour[me];
            pl[i] = (nn_place){false, col, 1, true,
                               (int)pips_rng_below(&rng, (uint64_t)c->width + 1),
                               (int)pips_rng_below(&rng, (uint64_t)c->height + 1),
                               (int)pips_rng_below(&rng, 3600)};
            for (int z = 1; z <= 3; z++)
                if (s->pad[me][col][z])
                    pl[i].size = z;
        }
        /* Legality plus the pointing update of one placement, on the same
         * table each time: the check, the new attacker's scan, and every
         * attacker's ray against the new footprint. */
        volatile double sink = 0;
        double t0 = cpu_seconds();
        for (int i = 0; i < placements; i++) {
            bool ok = nn_check(c, s, &pl[i], NULL);
            nn_piece pc;
            nn_build_piece(&pc, &pl[i], s->turn);
            double t;
            int tg = nn_scan_target(s, &pc, -1, &t);
            int moved = 0;
            for (int k = 0; k < s->n_table; k++) {
                double h;
                moved += nn_target_with(s, k, &pc, &h) == s->n_table;
            }
            sink += ok + tg + moved + t;
        }
        result = (cpu_seconds() - t0) * 1e6 / placements;
        (void)sink;
    }
    pips_free(NULL, s);
    pips_free(NULL, pl);
    pips_game_free(g);
    return result;
}

/* ---- the definition ---- */

static const char NN_RULES[] =
    "Noname (David Morgan-Mar).\n"
    "Each player has 15 pyramids of one colour (5 S=1, 5 M=2, 5 L=3) on a pad. On a turn\n"
    "the mover places one piece from the pad, of any colour, anywhere on the table,\n"
    "upright (a defender) or lying (an attacker); it never moves again (NON-R1, R4).\n"
    "A lying piece points along its axis at the first piece its ray meets (grazing hits,\n"
    "ties within 1e-6 mm go to the lower id: NON-R5). Colour c subdues Q when colour-c\n"
    "attackers aim at least value(Q) points at it. A new attacker whose colour subdues its\n"
    "target captures it (NON-R6) unless the target is its own colour (E1) or is M/L with\n"
    "fewer than two attackers of that colour (E2, option multi_attacker). The victim goes\n"
    "to the pad of the player of the attacker's colour (option capture_to; NON-R11). One\n"
    "capture per placement, no chains (NON-R10). A prisoner (another colour on your pad)\n"
    "may lie only while another of its colour stays on the pad (NON-R3). An empty pad\n"
    "skips (NON-R12); a full pad may skip only with no room (NON-R16). The game ends when\n"
    "all pads are empty, after turn_cap turns (NON-R13) or after a round of skips.\n"
    "Scoring (NON-R14): a piece linked to its own colour (it aims at one, or one aims at\n"
    "it) scores -v; else a subdued piece 0; else +v. Pad pieces 0; ties share (NON-R15).\n";

static const char NN_NOTATION[] =
    "A move is COLOUR SIZE @ X,Y and a pose, or -- to skip. Coordinates in mm with at most\n"
    "one decimal, x right and y up from the table's lower-left corner.\n"
    "Upright (X,Y is the centre): rM@312.5,140.0/U or rM@312.5,140.0/U15.0 (rotation\n"
    "0.0..359.9, kept mod 90). Lying (X,Y is the tip, then the heading 0.0..359.9 degrees\n"
    "counter-clockwise from +x): gL@100.0,100.0>45.0. Colours r y g b k w p o c x.\n"
    "Positions: options, seats, turn, to, passes, pads (e.g. r:rS5,bM1) and the table\n"
    "pieces in id order (#7 bS@250.0,300.0>0.0).\n";

/* `pips bench` extras: playouts choosing from the whole candidate list, and
 * one placement's legality check plus pointing update among 100 pieces. */
static void noname_bench_extra(const pips_game *g, pips_str *out)
{
    double rate = noname_bench_playouts(g, 1000, 1);
    double us = noname_bench_placement_us(100, 100000, 2);
    pips_str_catf(out, "playouts choosing from the full candidate list: %.0f/s\n", rate);
    pips_str_catf(out, "legality + pointing update among 100 pieces: %.3f us\n", us);
}

const pips_game_def pips_noname_def = {
    .name = "noname",
    .title = "Noname",
    .rules_text = NN_RULES,
    .notation_text = NN_NOTATION,
    .options = nn_options,
    .n_options = sizeof nn_options / sizeof nn_options[0],
    .config_size = sizeof(nn_config),
    .state_size = sizeof(nn_state),
    .flags = PIPS_GAME_NOT_ENUMERABLE | PIPS_GAME_MOVE_TEXT_FIXED,
    .bench_perft_depth = 0,
    .bench_playouts = 5000,
    .bench_extra = noname_bench_extra,
    .configure = nn_configure,
    .num_players = nn_num_players,
    .max_moves = nn_max_moves,
    .initial = nn_initial,
    .to_move = nn_to_move,
    .legal_moves = NULL,
    .check_move = nn_check_move,
    .apply = nn_apply,
    .returns = nn_returns,
    .scores = nn_scores_hook,
    .result_text = nn_result_text,
    .capped = nn_capped,
    .move_to_text = nn_move_to_text,
    .move_from_text = nn_move_from_text,
    .state_to_text = nn_state_to_text,
    .state_from_text = nn_state_from_text,
    .hash = nn_hash,
    .render = nn_render,
    .state_view = nn_state_view,
    .candidates = nn_candidates_hook,
    .random_move = nn_random_move_hook,
    .evaluate = nn_evaluate,
    .order_moves = nn_order_moves,
    /* measured in docs/ai.md, "Noname": each rung against the one below over 200
     * games; alphabeta needs two seats, so three or more take the generic row;
     * max's budget is nodes, not time, so a seed replays its games on any load */
    .levels = {"random", "greedy", "alphabeta:depth=3,shuffle=1",
               "alphabeta:depth=7,nodes=800000,shuffle=1"},
    /* 3 or more seats: issue 24, docs/ai.md "Levels for three to six seats" */
    .levels_n = {{"random", "greedy", "mcts:iters=1000,order=eval,opp=greedy",
                  "mcts:iters=2000,c=0.3,order=eval,opp=greedy,draws=8"},
                 /* 4 seats: max re-ranks its first four moves by greedy playouts to
                  * the end ("Noname's max at four seats: re-ranked by playouts");
                  * no search we could afford is a measured step between greedy
                  * and max, so hard is greedy and medium a noisy greedy
                  * ("Four seats in Nimitz and Noname: searches cluster") */
                 {"random", "greedy:noise=0.7", "greedy",
                  "mcts:iters=2000,order=eval,opp=greedy,draws=8,rerank=4,reruns=12"},
                 /* 5-8 seats: not measured; the playouts would be longer there (4.7 s
                  * of wall time at worst in one eight-seat game), so no rerank */
                 {"random", "greedy", "mcts:iters=1000,order=eval,opp=greedy,draws=4",
                  "mcts:iters=2000,order=eval,opp=greedy,draws=8"}},
};
