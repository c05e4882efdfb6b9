/*
 * test_core.c — core services: the PRNG, Zobrist keys, strings, parsing,
 * options, the failing allocator, matches (undo, dice) and game records.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "pips/match.h"

static void test_rng_is_deterministic_and_uniform(void **unused)
{
    (void)unused;
    pips_rng a, b;
    pips_rng_seed(&a, 42);
    pips_rng_seed(&b, 42);
    for (int i = 0; i < 1000; i++)
        assert_true(pips_rng_next(&a) == pips_rng_next(&b));
    pips_rng_seed(&b, 43);
    assert_true(pips_rng_next(&a) != pips_rng_next(&b));
    /* below(n) stays in range and hits every value */
    int hits[7] = {0};
    for (int i = 0; i < 7000; i++) {
        uint64_t v = pips_rng_below(&a, 7);
        assert_true(v < 7);
        hits[v]++;
    }
    for (int i = 0; i < 7; i++)
        assert_true(hits[i] > 800 && hits[i] < 1200);
    double d = pips_rng_double(&a);
    assert_true(d >= 0.0 && d < 1.0);
    /* derived streams differ by index and repeat by seed */
    pips_rng x, y, z;
    pips_rng_derive(&x, 7, 1);
    pips_rng_derive(&y, 7, 1);
    pips_rng_derive(&z, 7, 2);
    uint64_t vx = pips_rng_next(&x);
    assert_true(vx == pips_rng_next(&y));
    assert_true(vx != pips_rng_next(&z));
}

static void test_zobrist_keys_are_fixed(void **unused)
{
    (void)unused;
    assert_true(pips_zobrist_key(0) == pips_zobrist_key(0));
    assert_true(pips_zobrist_key(0) != pips_zobrist_key(1));
    /* the key is part of the hash format: changing it changes every hash */
    assert_true(pips_zobrist_key(12345) == pips_mix64(0x5049505331ULL + 12346 * 0x9e3779b97f4a7c15ULL));
}

static void test_strings_and_parsing(void **unused)
{
    (void)unused;
    pips_str s;
    pips_str_init(&s, NULL);
    assert_string_equal(pips_str_cstr(&s), "");
    for (int i = 0; i < 100; i++)
        pips_str_catf(&s, "%d,", i);
    assert_int_equal(strncmp(pips_str_cstr(&s), "0,1,2,", 6), 0);
    assert_int_equal(s.len, strlen(s.data));
    pips_str_free(&s);
    long v;
    assert_true(pips_parse_int("-12", -20, 20, &v) && v == -12);
    assert_false(pips_parse_int("12x", 0, 20, &v));
    assert_false(pips_parse_int("", 0, 20, &v));
    assert_false(pips_parse_int("21", 0, 20, &v));
    assert_false(pips_parse_int(" 1", 0, 20, &v));
    assert_false(pips_parse_int("99999999999999999999999", 0, 20, &v));
    bool b;
    assert_true(pips_parse_bool("true", &b) && b);
    assert_true(pips_parse_bool("no", &b) && !b);
    assert_false(pips_parse_bool("maybe", &b));
}

static void test_failing_allocator(void **unused)
{
    (void)unused;
    /* Every allocation that fails must give an error, never a crash. */
    for (unsigned long n = 1; n < 40; n++) {
        pips_failing_allocator fa;
        pips_failing_allocator_init(&fa, n);
        pips_error err;
        pips_match *m = pips_match_new("tictacdoh", NULL, 0, 1, &fa.base, &err);
        if (!m) {
            assert_int_equal(err.code, PIPS_ERR_NOMEM);
            continue;
        }
        bool ok = pips_match_play_text(m, "L@0,0", &err) && pips_match_play_text(m, "M@1,0", &err);
        if (!ok)
            assert_int_equal(err.code, PIPS_ERR_NOMEM);
        char *rec = pips_match_to_record(m, &err);
        pips_free(&fa.base, rec);
        pips_match_free(m);
    }
    pips_str s;
    pips_failing_allocator fa;
    pips_failing_allocator_init(&fa, 1);
    pips_str_init(&s, &fa.base);
    pips_str_cat(&s, "hello");
    assert_true(s.failed);
    assert_string_equal(pips_str_cstr(&s), "");
    pips_str_free(&s);
}

/* A solver table is zero, costs only the pages touched (mapped lazily),
 * and a custom allocator's table counts whole; a failing allocator gives
 * NULL, not a crash. */
static void test_tt_tables_are_lazy(void **unused)
{
    (void)unused;
    size_t bytes = (size_t)64 << 20;
    unsigned char *t = pips_tt_alloc(NULL, bytes);
    assert_non_null(t);
    assert_true(pips_tt_resident(NULL, t, bytes) < bytes / 8);
    for (size_t i = 0; i < bytes; i += bytes / 16)
        assert_int_equal(t[i], 0);
    for (size_t i = 0; i < (size_t)1 << 20; i++)
        t[bytes / 2 + i] = (unsigned char)i;
    size_t resident = pips_tt_resident(NULL, t, bytes);
    assert_true(resident >= (size_t)1 << 20 && resident < bytes / 4);
    pips_tt_free(NULL, t, bytes);
    pips_failing_allocator fa;
    pips_failing_allocator_init(&fa, 2);
    void *own = pips_tt_alloc(&fa.base, (size_t)4 << 20);
    assert_non_null(own);
    assert_int_equal(pips_tt_resident(&fa.base, own, (size_t)4 << 20), (size_t)4 << 20);
    assert_null(pips_tt_alloc(&fa.base, (size_t)4 << 20));
    pips_tt_free(&fa.base, own, (size_t)4 << 20);
}

static void test_options_errors_name_the_key(void **unused)
{
    (void)unused;
    pips_error err;
    const char *bad1[] = {"noequals"};
    assert_null(pips_game_new("tictacdoh", bad1, 1, NULL, &err));
    assert_non_null(strstr(err.msg, "noequals"));
    const char *bad2[] = {"=5"};
    assert_null(pips_game_new("tictacdoh", bad2, 1, NULL, &err));
    assert_null(pips_game_new("chess", NULL, 0, NULL, &err));
    assert_non_null(strstr(err.msg, "unknown game 'chess'"));
    assert_non_null(strstr(err.msg, "tictacdoh"));
}

/* The shared option readers behind every game's configure hook: a good
 * value is read, a bad one fails naming the key, the value and what is
 * accepted. Checked through real games so the wiring is covered too. */
static void test_option_readers_name_key_value_and_choices(void **unused)
{
    (void)unused;
    pips_error err;
    const char *players[] = {"players=9"};
    assert_null(pips_game_new("icefrogs", players, 1, NULL, &err));
    assert_string_equal(err.msg, "option 'players': '9' is not 2..6");
    const char *misere[] = {"misere=perhaps"};
    assert_null(pips_game_new("nimitz", misere, 1, NULL, &err));
    assert_string_equal(err.msg, "option 'misere': 'perhaps' is not true or false");
    const char *multi[] = {"multi_attacker=all"};
    assert_null(pips_game_new("noname", multi, 1, NULL, &err));
    assert_string_equal(err.msg, "option 'multi_attacker': 'all' is not colour, any or off");
    const char *capture[] = {"capture_to=x"};
    assert_null(pips_game_new("noname", capture, 1, NULL, &err));
    assert_string_equal(err.msg, "option 'capture_to': 'x' is not colour or placer");
    const char *omit[] = {"players=3", "omit=purple"};
    assert_null(pips_game_new("ziggurat", omit, 2, NULL, &err));
    assert_string_equal(err.msg, "option 'omit': 'purple' is not red, green, yellow or blue");

    pips_options o = {.n = 2};
    strcpy(o.kv[0].key, "n");
    strcpy(o.kv[0].value, "7");
    strcpy(o.kv[1].key, "flag");
    strcpy(o.kv[1].value, "true");
    long v = 0;
    bool b = false;
    int pick = -1;
    static const char *const ONE[] = {"7", NULL};
    assert_true(pips_option_int(&o, "n", 1, 7, &v, &err));
    assert_int_equal(v, 7);
    assert_false(pips_option_int(&o, "n", 1, 6, &v, &err));
    assert_string_equal(err.msg, "option 'n': '7' is not 1..6");
    assert_true(pips_option_bool(&o, "flag", &b, &err));
    assert_true(b);
    /* Boolean options take true or false only (issue 18: misere=yes was stored as written). */
    static const char *const NOT_BOOL[] = {"yes", "1", "TRUE", "no", "0", "maybe", ""};
    for (size_t i = 0; i < sizeof NOT_BOOL / sizeof NOT_BOOL[0]; i++) {
        strcpy(o.kv[1].value, NOT_BOOL[i]);
        assert_false(pips_option_bool(&o, "flag", &b, &err));
        assert_non_null(strstr(err.msg, "is not true or false"));
    }
    strcpy(o.kv[1].value, "false");
    assert_true(pips_option_bool(&o, "flag", &b, &err));
    assert_false(b);
    strcpy(o.kv[1].value, "true");
    assert_true(pips_option_choice(&o, "n", ONE, &pick, &err));
    assert_int_equal(pick, 0);
    assert_false(pips_option_choice(&o, "flag", ONE, &pick, &err));
    assert_string_equal(err.msg, "option 'flag': 'true' is not 7");
    assert_false(pips_option_int(&o, "missing", 0, 1, &v, &err));
    assert_non_null(strstr(err.msg, "option 'missing'"));
}

/* pips_sample_equal gives the index pips_sample_chance gives for equal
 * probabilities, draw for draw (games' sample_chance hooks rely on it). */
static void test_sample_equal_matches_sample_chance(void **unused)
{
    (void)unused;
    double prob[70];
    for (size_t n = 1; n <= 70; n++) {
        for (size_t i = 0; i < n; i++)
            prob[i] = 1.0 / (double)n;
        pips_rng a, b;
        pips_rng_seed(&a, 1000 + n);
        pips_rng_seed(&b, 1000 + n);
        for (int k = 0; k < 2000; k++)
            assert_int_equal(pips_sample_equal(&a, n), pips_sample_chance(&b, prob, n));
    }
}

static void test_match_undo_and_record_round_trip(void **unused)
{
    (void)unused;
    pips_error err;
    pips_match *m = pips_match_new("tictacdoh", NULL, 0, 99, NULL, &err);
    assert_non_null(m);
    const char *seats[] = {"human", "random"};
    assert_true(pips_match_set_seats(m, seats, 2, &err));
    assert_false(pips_match_set_seats(m, seats, 1, &err));
    const char *moves[] = {"L@0,0", "M@1,0", "M@0,0", "S@1,1"};
    for (int i = 0; i < 4; i++)
        assert_true(pips_match_play_text(m, moves[i], &err));
    /* an illegal move changes nothing */
    assert_false(pips_match_play_text(m, "L@0,0", &err));
    assert_int_equal(m->n_moves, 4);
    /* two undos take back two plies */
    assert_true(pips_match_undo(m, &err));
    assert_true(pips_match_undo(m, &err));
    assert_int_equal(m->n_moves, 2);
    assert_true(pips_match_play_text(m, "M@0,0", &err));
    assert_true(pips_match_play_text(m, "S@1,1", &err));
    char *rec = pips_match_to_record(m, &err);
    assert_non_null(rec);
    pips_match *back = pips_match_from_record(rec, NULL, &err);
    if (!back)
        fail_msg("%s", err.msg);
    assert_int_equal(back->n_moves, 4);
    assert_memory_equal(back->state, m->state, m->game->def->state_size);
    assert_string_equal(back->seats[1], "random");
    assert_true(back->seed == 99);
    pips_free(NULL, rec);
    pips_match_free(back);
    pips_match_free(m);
}

static void expect_record_error(const char *json, const char *fragment)
{
    pips_error err = {0};
    pips_match *m = pips_match_from_record(json, NULL, &err);
    if (m)
        fail_msg("record accepted: %s", json);
    if (!strstr(err.msg, fragment))
        fail_msg("record error '%s' lacks '%s'", err.msg, fragment);
}

static void test_bad_records_name_the_problem(void **unused)
{
    (void)unused;
    expect_record_error("{", "invalid JSON");
    expect_record_error("[]", "expected an object");
    expect_record_error("{\"moves\":[]}", "'game'");
    expect_record_error("{\"game\":\"go\",\"moves\":[]}", "unknown game");
    expect_record_error("{\"game\":\"tictacdoh\"}", "'moves'");
    expect_record_error("{\"game\":\"tictacdoh\",\"options\":{\"x\":\"1\"},\"moves\":[]}",
                        "no option 'x'");
    expect_record_error("{\"game\":\"tictacdoh\",\"moves\":[\"L@0,0\",\"M@1,0\",\"S@0,0\"]}",
                        "move 3 'S@0,0'");
    expect_record_error("{\"game\":\"tictacdoh\",\"moves\":[\"L@0,0\",7]}", "move 2 is");
    expect_record_error("{\"game\":\"tictacdoh\",\"moves\":[\"L@0,0\"],"
                        "\"result\":{\"over\":true}}",
                        "over");
    expect_record_error("{\"game\":\"tictacdoh\",\"seats\":[\"a\"],\"moves\":[]}", "seats");
    expect_record_error("{\"game\":\"tictacdoh\",\"seed\":-1,\"moves\":[]}", "seed");
    expect_record_error("{\"game\":\"tictacdoh\",\"moves\":[],\"moves\":[]}", "invalid JSON");
    /* Issue 18: unknown keys, made-up seats and a result the moves contradict. */
    expect_record_error("{\"game\":\"tictacdoh\",\"moves\":[],\"winner\":1}",
                        "unknown key 'winner'");
    expect_record_error("{\"game\":\"tictacdoh\",\"seats\":[\"human\",\"superbot\"],"
                        "\"moves\":[]}",
                        "seat 2 'superbot' is neither 'human' nor an agent");
#define TTD_WON "\"L@0,0\",\"L@0,-1\",\"S@1,1\",\"S@2,0\",\"M@0,0\",\"S@1,-1\",\"L@2,-1\"," \
                "\"M@2,1\",\"M@0,-1\",\"L@1,0\",\"L@2,1\""
    expect_record_error("{\"game\":\"tictacdoh\",\"moves\":[" TTD_WON "],"
                        "\"result\":{\"over\":true,\"text\":\"O wins\"}}",
                        "result 'O wins' but the moves give 'X wins'");
    expect_record_error("{\"game\":\"tictacdoh\",\"moves\":[" TTD_WON "],"
                        "\"result\":{\"over\":true,\"returns\":[0,1]}}",
                        "'result.returns' disagrees");
    expect_record_error("{\"game\":\"tictacdoh\",\"moves\":[],\"result\":[]}",
                        "'result' must be an object");
    pips_error err;
    pips_match *m = pips_match_from_record(
        "{\"game\":\"tictacdoh\",\"seats\":[\"human\",\"mcts:iters=50\"],\"moves\":[" TTD_WON
        "],\"result\":{\"over\":true,\"text\":\"X wins\",\"returns\":[1,0]}}",
        NULL, &err);
    if (!m)
        fail_msg("a consistent record was refused: %s", err.msg);
    pips_match_free(m);
#undef TTD_WON
    assert_null(pips_match_load(PIPS_SOURCE_DIR, NULL, &err));
    assert_non_null(strstr(err.msg, "is a directory"));
}

static void test_playout_reproduces_with_seed(void **unused)
{
    (void)unused;
    pips_game *g = pips_game_new("tictacdoh", NULL, 0, NULL, NULL);
    unsigned char a[1024], b[1024];
    pips_move buf[128];
    for (uint64_t seed = 0; seed < 50; seed++) {
        pips_rng r1, r2;
        pips_rng_seed(&r1, seed);
        pips_rng_seed(&r2, seed);
        g->def->initial(g, a);
        g->def->initial(g, b);
        pips_random_playout(g, a, &r1, buf, 1000);
        pips_random_playout(g, b, &r2, buf, 1000);
        assert_memory_equal(a, b, g->def->state_size);
    }
    pips_game_free(g);
}

/* pips_policy_playout is exactly pips_random_playout for every game without
 * a playout_move hook: the same plies and final state from the same seed. */
static void test_policy_playout_falls_back_to_uniform(void **unused)
{
    (void)unused;
    for (size_t gi = 0; gi < pips_game_count(); gi++) {
        const pips_game_def *d = pips_game_def_at(gi);
        if (d->playout_move)
            continue;
        pips_game *g = pips_game_new(d->name, NULL, 0, NULL, NULL);
        assert_non_null(g);
        void *a = pips_state_new(g, NULL), *b = pips_state_new(g, NULL);
        pips_move *buf = calloc(pips_max_moves(g), sizeof *buf);
        for (uint64_t seed = 0; seed < 10; seed++) {
            pips_rng r1, r2;
            pips_rng_seed(&r1, seed);
            pips_rng_seed(&r2, seed);
            g->def->initial(g, a);
            g->def->initial(g, b);
            size_t n1 = pips_random_playout(g, a, &r1, buf, 300);
            size_t n2 = pips_policy_playout(g, b, &r2, buf, 300);
            assert_int_equal(n1, n2);
            assert_memory_equal(a, b, d->state_size);
        }
        free(buf);
        pips_state_free(g, a);
        pips_state_free(g, b);
        pips_game_free(g);
    }
}

/* The option schema (issue 17): every option of every game declares a type
 * with its range, choices or pattern, a default and a one-line description;
 * every default passes its own schema; the JSON names them all. */
static void test_option_schema_of_every_game(void **unused)
{
    (void)unused;
    for (size_t i = 0; i < pips_game_count(); i++) {
        const pips_game_def *d = pips_game_def_at(i);
        assert_true(d->n_options <= PIPS_MAX_OPTIONS);
        for (size_t k = 0; k < d->n_options; k++) {
            const pips_option_def *od = &d->options[k];
            pips_error err;
            assert_ptr_equal(pips_option_def_find(d, od->key), od);
            if (!od->help || strlen(od->help) < 8 || strchr(od->help, '\n'))
                fail_msg("%s %s: no one-line description", d->name, od->key);
            if (!od->default_value || !pips_option_check(od, od->default_value, &err))
                fail_msg("%s %s: the default fails its schema", d->name, od->key);
            switch (od->type) {
            case PIPS_OPT_INT:
                assert_true(od->min <= od->max);
                break;
            case PIPS_OPT_CHOICE:
                assert_non_null(od->choices);
                assert_non_null(od->choices[0]);
                break;
            case PIPS_OPT_TEXT:
                if (!od->pattern || !od->pattern[0])
                    fail_msg("%s %s: a text option needs a pattern", d->name, od->key);
                break;
            case PIPS_OPT_BOOL:
                break;
            default:
                fail_msg("%s %s: unknown type %d", d->name, od->key, (int)od->type);
            }
        }
        pips_str js;
        pips_str_init(&js, NULL);
        assert_true(pips_game_schema_json(d, &js, NULL));
        json_error_t jerr;
        json_t *doc = json_loads(pips_str_cstr(&js), 0, &jerr);
        if (!doc)
            fail_msg("%s schema: %s", d->name, jerr.text);
        assert_string_equal(json_string_value(json_object_get(doc, "name")), d->name);
        json_t *opts = json_object_get(doc, "options");
        assert_int_equal(json_array_size(opts), d->n_options);
        for (size_t k = 0; k < d->n_options; k++) {
            json_t *o = json_array_get(opts, k);
            assert_string_equal(json_string_value(json_object_get(o, "key")),
                                d->options[k].key);
            assert_string_equal(json_string_value(json_object_get(o, "default")),
                                d->options[k].default_value);
            assert_non_null(json_string_value(json_object_get(o, "type")));
            assert_non_null(json_string_value(json_object_get(o, "description")));
        }
        json_decref(doc);
        pips_str_free(&js);
    }
}

/* The schema checks values before a game's configure sees them: ranges and
 * words of ints, choices, bools; text is the game's to parse. */
static void test_option_check_against_schema(void **unused)
{
    (void)unused;
    static const char *const AUTO[] = {"auto", NULL};
    static const char *const DICE[] = {"d8", "d6", NULL};
    pips_option_def cap = {"cap", "auto", "a cap", .type = PIPS_OPT_INT, .min = 0, .max = 50,
                           .choices = AUTO};
    pips_option_def die = {"die", "d8", "a die", .type = PIPS_OPT_CHOICE, .choices = DICE};
    pips_option_def flag = {"flag", "false", "a flag", .type = PIPS_OPT_BOOL};
    pips_option_def text = {"t", "x", "a text", .type = PIPS_OPT_TEXT, .pattern = "anything"};
    pips_error err;
    assert_true(pips_option_check(&cap, "auto", &err));
    assert_true(pips_option_check(&cap, "50", &err));
    assert_false(pips_option_check(&cap, "51", &err));
    assert_string_equal(err.msg, "option 'cap': '51' is not auto or 0..50");
    assert_false(pips_option_check(&cap, "Auto", &err));
    assert_true(pips_option_check(&die, "d6", &err));
    assert_false(pips_option_check(&die, "d10", &err));
    assert_string_equal(err.msg, "option 'die': 'd10' is not d8 or d6");
    assert_true(pips_option_check(&flag, "true", &err));
    assert_false(pips_option_check(&flag, "yes please", &err));
    assert_true(pips_option_check(&text, "", &err));
    pips_str acc;
    pips_str_init(&acc, NULL);
    pips_option_accepts(&cap, &acc);
    pips_option_accepts(&die, &acc);
    assert_string_equal(pips_str_cstr(&acc), "auto or 0..50d8|d6");
    pips_str_free(&acc);
    /* through a game: the schema's message, before configure runs */
    const char *turn_cap[] = {"turn_cap=soon"};
    assert_null(pips_game_new("noname", turn_cap, 1, NULL, &err));
    assert_string_equal(err.msg, "option 'turn_cap': 'soon' is not auto or 0..1000000");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rng_is_deterministic_and_uniform),
        cmocka_unit_test(test_zobrist_keys_are_fixed),
        cmocka_unit_test(test_strings_and_parsing),
        cmocka_unit_test(test_failing_allocator),
        cmocka_unit_test(test_options_errors_name_the_key),
        cmocka_unit_test(test_option_readers_name_key_value_and_choices),
        cmocka_unit_test(test_option_schema_of_every_game),
        cmocka_unit_test(test_option_check_against_schema),
        cmocka_unit_test(test_sample_equal_matches_sample_chance),
        cmocka_unit_test(test_match_undo_and_record_round_trip),
        cmocka_unit_test(test_bad_records_name_the_problem),
        cmocka_unit_test(test_playout_reproduces_with_seed),
        cmocka_unit_test(test_policy_playout_falls_back_to_uniform),
        cmocka_unit_test(test_tt_tables_are_lazy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
