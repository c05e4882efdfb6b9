/*
 * nimitz_view.c — the structured view of a Nimitz state (pips/view.h): the
 * board's real cells with their stacks, and the shared store.
 *
 * Members: "rows", "cols"; "cells": every real cell of the layout (holes
 * left out) in cell order, {"name", "file", "rank" (0-based, rank 0 at the
 * bottom), "orient" ("U" "N" "E" "S" "W" of the bottom piece, the tree's;
 * null when empty), "stack": bottom first [{"colour", "size"}, and with
 * tree_orientation=free "orient" per piece]}; "colours": the colour letters
 * in play (r o y g b, then the Xeno set's c p w k x);
 * "sets"; "store": per colour and size (colour order, then S M L) {"colour",
 * "size", "left"}; "placed"; "misere"; "tree_orientation" ("shared"/"free"). Colour, size and orientation letters
 * come from the game's own move text, so they are spelled once, in nimitz.c.
 */
#include "pips/view.h"

#include <stdio.h>
#include <string.h>

#include "games/nimitz/nimitz.h"

/* The letters of piece p ("rL") and of orientation o, as the notation
 * writes them in the move "rL@a1:U". */
static void piece_letters(const pips_game *g, const void *state, int p, int o, char *colour,
                          char *size, char *orient)
{
    char buf[PIPS_MOVE_TEXT_MAX];
    g->def->move_to_text(g, state, nim_make_move(0, o, p), buf);
    colour[0] = buf[0];
    colour[1] = '\0';
    size[0] = buf[1];
    size[1] = '\0';
    const char *colon = strchr(buf, ':');
    orient[0] = colon ? colon[1] : '?';
    orient[1] = '\0';
}

bool nim_state_view(const pips_game *g, const void *state, json_t *view)
{
    const nim_config *cf = g->config;
    const nim_state *s = state;
    bool ok = true;
    char colour[2], size[2], orient[2];
    pips_view_put(view, "rows", json_integer(cf->rows), &ok);
    pips_view_put(view, "cols", json_integer(cf->cols), &ok);
    json_t *cells = json_array();
    for (int c = 0; c < cf->cells; c++) {
        json_t *cell = json_object(), *stack = json_array();
        char name[8];
        name[0] = (char)('a' + cf->cell_col[c]);
        snprintf(name + 1, sizeof name - 1, "%d", cf->cell_row[c] + 1);
        pips_view_put(cell, "name", json_string(name), &ok);
        pips_view_put(cell, "file", json_integer(cf->cell_col[c]), &ok);
        pips_view_put(cell, "rank", json_integer(cf->cell_row[c]), &ok);
        for (int l = 0; l < s->height[c]; l++) {
            json_t *pc = json_object();
            piece_letters(g, state, s->slot[c][l] - 1, s->lorient[c][l], colour, size, orient);
            pips_view_put(pc, "colour", json_string(colour), &ok);
            pips_view_put(pc, "size", json_string(size), &ok);
            if (cf->free_orient) /* NIM-R3's variant: each level its own */
                pips_view_put(pc, "orient", json_string(orient), &ok);
            pips_view_push(stack, pc, &ok);
        }
        piece_letters(g, state, 0, s->orient[c], colour, size, orient);
        pips_view_put(cell, "orient", s->height[c] ? json_string(orient) : json_null(), &ok);
        pips_view_put(cell, "stack", stack, &ok);
        pips_view_push(cells, cell, &ok);
    }
    pips_view_put(view, "cells", cells, &ok);
    json_t *colours = json_array(), *store = json_array();
    for (int k = 0; k < cf->colours; k++) {
        for (int z = 0; z < 3; z++) {
            int p = k * 3 + z;
            piece_letters(g, state, p, 0, colour, size, orient);
            if (z == 0)
                pips_view_push(colours, json_string(colour), &ok);
            json_t *e = json_object();
            pips_view_put(e, "colour", json_string(colour), &ok);
            pips_view_put(e, "size", json_string(size), &ok);
            pips_view_put(e, "left", json_integer(s->store[p]), &ok);
            pips_view_push(store, e, &ok);
        }
    }
    pips_view_put(view, "colours", colours, &ok);
    pips_view_put(view, "sets", json_integer(cf->sets), &ok);
    pips_view_put(view, "store", store, &ok);
    pips_view_put(view, "placed", json_integer(s->placed), &ok);
    pips_view_put(view, "misere", json_boolean(cf->misere), &ok);
    pips_view_put(view, "tree_orientation", json_string(cf->free_orient ? "free" : "shared"),
                  &ok);
    return ok;
}
