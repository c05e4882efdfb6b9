/*
 * tictacdoh_lines.h — the line tests of Tic Tac Doh! (TTD-R5) on the
 * 25-cell bitboard (bit = cell index, 5 cells a row, row 0 at the bottom),
 * shared by the game (tictacdoh.c) and its tests. Masks hold only bits
 * 0..24; completing_cells() may set the bits above when m holds a line.
 */
#ifndef PIPS_TICTACDOH_LINES_H
#define PIPS_TICTACDOH_LINES_H

#include <stdbool.h>
#include <stdint.h>

#define ALL_CELLS 0x1FFFFFFu
#define COL(x) (0x108421u << (x)) /* column x (0..4), all rows */

/* Does m hold three cells in a row, column or diagonal? (TTD-R5) */
static inline bool has_line(uint32_t m)
{
    uint32_t starts03 = COL(0) | COL(1) | COL(2), starts24 = COL(2) | COL(3) | COL(4);
    return (m & (m >> 1) & (m >> 2) & starts03) || (m & (m >> 5) & (m >> 10)) ||
           (m & (m >> 6) & (m >> 12) & starts03) || (m & (m >> 4) & (m >> 8) & starts24);
}

/* The cells c for which has_line(m | c): the third cell of every row,
 * column or diagonal that m holds two cells of (every cell when m already
 * holds a line). One pass of shifts instead of has_line per cell: the
 * evaluation asks this of every placement, and the playtest lab evaluates
 * after every turn. */
static inline uint32_t completing_cells(uint32_t m)
{
    if (has_line(m))
        return ~0u;
    /* line kinds: step d between cells, and the cells a line may start on */
    static const struct { int d; uint32_t starts; } KINDS[4] = {
        {1, COL(0) | COL(1) | COL(2)},                   /* rows */
        {5, 0x7FFFu},                                    /* columns */
        {6, (COL(0) | COL(1) | COL(2)) & 0x1FFFu},       /* diagonals up-right */
        {4, (COL(2) | COL(3) | COL(4)) & 0x1FFFFu},      /* diagonals up-left */
    };
    uint32_t out = 0;
    for (int k = 0; k < 4; k++) {
        int d = KINDS[k].d;
        uint32_t a = m, b = m >> d, c = m >> (2 * d), st = KINDS[k].starts;
        out |= (b & c & st) | (a & c & st) << d | (a & b & st) << (2 * d);
    }
    return out;
}

#endif
