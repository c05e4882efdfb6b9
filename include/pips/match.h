/*
 * pips/match.h — a game in progress with its history, and game records.
 *
 * A pips_match owns a configured game, the current state, every move played
 * (decisions and chance outcomes alike) and the state before each move, so
 * undo is exact for every game. Chance events are drawn with an rng derived
 * from the match seed and the event's number, so a seed reproduces the
 * dice and a match resumed from a record keeps drawing the same dice.
 *
 * Records are JSON:
 *   {"format":"pips-record","version":1,"game":"tictacdoh","options":{...},
 *    "seats":["human","random"],"seed":42,"moves":["L@0,0",...],
 *    "result":{"over":true,"text":"X wins","returns":[1,0]},
 *    "started":"2026-11-22T01:30:00Z","finished":"..."}
 * Reading a record replays and validates every move and reports the first
 * bad one by number (1-based).
 */
#ifndef PIPS_MATCH_H
#define PIPS_MATCH_H

#include "pips/game.h"

#ifdef __cplusplus
extern "C" {
#endif
#if defined(__GNUC__)
#pragma GCC visibility push(default) /* exported from libpips.so */
#endif

/* A seat: "human" or any agent spec (PIPS_SPEC_MAX in pips/agent.h). */
#define PIPS_SEAT_MAX 256
#define PIPS_TIME_MAX 32

typedef struct pips_match {
    pips_game *game; /* owned unless game_borrowed */
    void *state;     /* the current position */
    size_t n_moves, cap;
    pips_move *moves;        /* n_moves played */
    unsigned char *history;  /* n_moves states: the state before each move */
    uint64_t seed;
    uint64_t chance_events;  /* chance outcomes played so far */
    int n_seats;
    char seats[PIPS_MAX_PLAYERS][PIPS_SEAT_MAX]; /* who plays each seat: "human", "mcts:hard" */
    char started[PIPS_TIME_MAX], finished[PIPS_TIME_MAX]; /* ISO 8601 UTC, "" if unset */
    bool game_borrowed; /* pips_match_free leaves the game to its owner */
} pips_match;

/* A new match at the start position; seats default to "human". */
pips_match *pips_match_new(const char *game, const char *const *kv, size_t n_opts,
                           uint64_t seed, const pips_allocator *alloc, pips_error *err);
/* Builds game `name` with options given as a JSON object text
 * ({"board":"volcano","players":3,"misere":true}); values are strings,
 * numbers or booleans, and anything else is an error naming the key. NULL or
 * "" means every default. Records, the server's API and its store read
 * options this one way. */
pips_game *pips_game_new_json(const char *name, const char *options_json,
                              const pips_allocator *alloc, pips_error *err);
/* Same, taking ownership of an already configured game (freed on failure). */
pips_match *pips_match_from_game(pips_game *g, uint64_t seed, pips_error *err);
/* Same over a game the caller keeps (and frees after the match): one
 * configured game for many matches, as the playtest lab plays them. */
pips_match *pips_match_on_game(pips_game *g, uint64_t seed, pips_error *err);
void pips_match_free(pips_match *m);

/* Sets the seat descriptions (n must equal the number of players). */
bool pips_match_set_seats(pips_match *m, const char *const *seats, int n, pips_error *err);

/* Plays a move after checking it; on failure nothing changes. */
bool pips_match_play(pips_match *m, pips_move mv, pips_error *err);
bool pips_match_play_text(pips_match *m, const char *text, pips_error *err);
/* At a chance node, the outcome the match dice give for the next chance
 * event (nothing is played). False when not at a chance node. */
bool pips_match_draw(const pips_match *m, pips_move *out, pips_error *err);
/* At a chance node, draws the outcome from the match's dice and plays it;
 * *out (may be NULL) receives it. False when not at a chance node. */
bool pips_match_roll(pips_match *m, pips_move *out, pips_error *err);
/* Takes back the last move (chance outcomes included). */
bool pips_match_undo(pips_match *m, pips_error *err);
bool pips_match_over(const pips_match *m);
/* The text of move i (0-based) as played. */
void pips_match_move_text(const pips_match *m, size_t i, char *buf);

/* ---- records ---- */

/* Serialises the match as a JSON record; the caller frees the text with
 * pips_free(m->game->alloc, text). */
char *pips_match_to_record(const pips_match *m, pips_error *err);
/* Replays a JSON record. On failure *err says what is wrong; for a bad move
 * it names the move's number and text, e.g. "move 7 'M@3,0': ...". */
pips_match *pips_match_from_record(const char *json, const pips_allocator *alloc,
                                   pips_error *err);
/* Writes the record to path atomically (a temporary file beside it, then a
 * rename): after a crash path holds the previous record or this one whole. */
bool pips_match_save(const pips_match *m, const char *path, pips_error *err);
pips_match *pips_match_load(const char *path, const pips_allocator *alloc, pips_error *err);

/* The current UTC time as ISO 8601 into buf (PIPS_TIME_MAX bytes). */
void pips_iso_time(char *buf);

#if defined(__GNUC__)
#pragma GCC visibility pop
#endif
#ifdef __cplusplus
}
#endif
#endif
