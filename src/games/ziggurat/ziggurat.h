/*
 * ziggurat.h — Ziggurat game records (docs/games/ziggurat.md, "Game records").
 *
 * A game record is a header line followed by one turn record per line:
 *   Ziggurat seats=R,B,Y,G players=4 mode=standard ... max_turns=1000 seed=7
 *   R8A Mh0-h8
 *   B3R RA:5 M@1-d1
 *   Y2W RB:H Ha9-a6
 *   G4T -
 * A turn record is the mover's letter, the opening roll (movement value and
 * action letter), then the steps; a die rolled by RA or RB follows it after
 * a colon. `-` marks a turn with no steps; `end` is never written (the next
 * line implies it). A line with only a colour letter is a turn whose dice
 * are not rolled yet; a last line "= <result>" ends a finished game.
 */
#ifndef PIPS_GAMES_ZIGGURAT_H
#define PIPS_GAMES_ZIGGURAT_H

#include "pips/game.h"

/* Writes the record of the game reached by playing moves[0..n) (decision
 * steps and chance outcomes alike) from g's start. seed is stored in the
 * header for reference. False with *err if a move is not legal. */
bool pips_ziggurat_record_write(const pips_game *g, const pips_move *moves, size_t n,
                                uint64_t seed, pips_str *out, pips_error *err);

/* Reads a record: builds the game from its header (*game, free with
 * pips_game_free) and the move sequence (*moves, n_moves entries, freed with
 * pips_free(alloc, ...)). False with *err naming the line on any error;
 * nothing is returned then. */
bool pips_ziggurat_record_read(const char *text, const pips_allocator *alloc, pips_game **game,
                               pips_move **moves, size_t *n_moves, uint64_t *seed,
                               pips_error *err);

#endif
