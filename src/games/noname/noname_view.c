/*
 * noname_view.c — the structured view of a Noname state (pips/view.h): the
 * table and the piece model's sizes (so a page draws footprints and
 * previews without restating them), every piece with its footprint, target
 * and score (noname_pieces), and each seat's pad.
 *
 * Members (lengths in mm, angles in degrees): "table": {"width", "height"};
 * "layout": {"base": {"S", "M", "L"} the base side w, "face": {"S", "M",
 * "L"} the lying length l from tip to base edge} (NON-R17); "seats": per
 * seat {"colour", "pad": [{"colour", "size", "n"}], "score"}; "to_move_colour"
 * (null once over); "pieces": in id order {"id", "colour", "size", "lying",
 * "x", "y" (upright: centre; lying: tip), "angle" (upright: rotation 0..90;
 * lying: heading), "corners": the footprint [[x, y], ...] counter-clockwise
 * (a lying piece's tip first), "target": the id it points at or null,
 * "hit_mm": the distance to it (to 0.001 mm) or null, "points": points aimed at it by
 * colour {"b": 2}, "subdued_by": colour letters, "own_linked", "score"};
 * "turn": the number of the next turn (and the next piece's id); "passes";
 * "last_id": the id of the piece placed on the turn before, null when that
 * turn placed nothing or its piece has left the table.
 */
#include "games/noname/noname.h"
#include "games/noname/noname_impl.h"
#include "pips/view.h"

#include <math.h>

static json_t *sizes_json(const int *tenths, bool *ok)
{
    json_t *o = json_object();
    for (int z = 1; z <= 3; z++) {
        char key[2] = {NN_SIZE_CH[z], '\0'};
        pips_view_put(o, key, pips_view_tenths(tenths[z]), ok);
    }
    return o;
}

static json_t *piece_json(const noname_piece_info *p, bool *ok)
{
    json_t *o = json_object(), *corners = json_array(), *points = json_object();
    pips_view_put(o, "id", json_integer(p->id), ok);
    pips_view_put(o, "colour", json_stringn(&p->colour, 1), ok);
    pips_view_put(o, "size", json_stringn(&p->size, 1), ok);
    pips_view_put(o, "lying", json_boolean(p->lying), ok);
    pips_view_put(o, "x", pips_view_tenths(p->x), ok);
    pips_view_put(o, "y", pips_view_tenths(p->y), ok);
    pips_view_put(o, "angle", pips_view_tenths(p->angle), ok);
    for (int v = 0; v < p->n_corners; v++) {
        json_t *xy = json_array();
        pips_view_push(xy, json_real(p->corner_x[v]), ok);
        pips_view_push(xy, json_real(p->corner_y[v]), ok);
        pips_view_push(corners, xy, ok);
    }
    pips_view_put(o, "corners", corners, ok);
    pips_view_put(o, "target", p->target_id ? json_integer(p->target_id) : json_null(), ok);
    /* to the micrometre: the geometry's 1e-6 mm tolerance is noise on a page */
    pips_view_put(o, "hit_mm", p->target_id ? json_real(round(p->hit_mm * 1000.0) / 1000.0) : json_null(),
                  ok);
    for (int c = 0; c < NN_COLOURS; c++)
        if (p->points[c]) {
            char key[2] = {NONAME_COLOURS[c], '\0'};
            pips_view_put(points, key, json_integer(p->points[c]), ok);
        }
    pips_view_put(o, "points", points, ok);
    pips_view_put(o, "subdued_by", json_string(p->subdued_by), ok);
    pips_view_put(o, "own_linked", json_boolean(p->own_linked), ok);
    pips_view_put(o, "score", json_integer(p->score), ok);
    return o;
}

bool nn_state_view(const pips_game *g, const void *state, json_t *view)
{
    const nn_config *c = g->config;
    const nn_state *s = state;
    bool ok = true;
    json_t *table = json_object(), *layout = json_object();
    pips_view_put(table, "width", pips_view_tenths(c->width), &ok);
    pips_view_put(table, "height", pips_view_tenths(c->height), &ok);
    pips_view_put(view, "table", table, &ok);
    pips_view_put(layout, "base", sizes_json(NN_BASE, &ok), &ok);
    pips_view_put(layout, "face", sizes_json(NN_FACE, &ok), &ok);
    pips_view_put(view, "layout", layout, &ok);

    int sc[NN_MAX_SEATS];
    nn_scores(s, sc);
    json_t *seats = json_array();
    for (int i = 0; i < s->n_seats; i++) {
        json_t *seat = json_object(), *pad = json_array();
        for (int col = 0; col < NN_COLOURS; col++)
            for (int z = 1; z <= 3; z++)
                if (s->pad[i][col][z]) {
                    json_t *e = json_object();
                    pips_view_put(e, "colour", json_stringn(&NN_COLOUR_CH[col], 1), &ok);
                    pips_view_put(e, "size", json_stringn(&NN_SIZE_CH[z], 1), &ok);
                    pips_view_put(e, "n", json_integer(s->pad[i][col][z]), &ok);
                    pips_view_push(pad, e, &ok);
                }
        pips_view_put(seat, "colour", json_stringn(&NN_COLOUR_CH[s->seat_colour[i]], 1), &ok);
        pips_view_put(seat, "pad", pad, &ok);
        pips_view_put(seat, "score", json_integer(sc[i]), &ok);
        pips_view_push(seats, seat, &ok);
    }
    pips_view_put(view, "seats", seats, &ok);
    pips_view_put(view, "to_move_colour",
                  s->over ? json_null() : json_stringn(&NN_COLOUR_CH[s->seat_colour[s->to_move]], 1),
                  &ok);

    noname_piece_info *info = s->n_table ? pips_malloc(g->alloc, s->n_table * sizeof *info) : NULL;
    if (s->n_table && !info)
        return false;
    size_t n = noname_pieces(g, state, info, s->n_table);
    json_t *pieces = json_array();
    bool last_on_table = false;
    for (size_t i = 0; i < n; i++) {
        pips_view_push(pieces, piece_json(&info[i], &ok), &ok);
        last_on_table |= info[i].id + 1 == s->turn;
    }
    pips_free(g->alloc, info);
    pips_view_put(view, "pieces", pieces, &ok);
    pips_view_put(view, "turn", json_integer(s->turn), &ok);
    pips_view_put(view, "passes", json_integer(s->passes), &ok);
    pips_view_put(view, "last_id", last_on_table ? json_integer(s->turn - 1) : json_null(), &ok);
    return ok;
}
