/*
 * svg.c — a small SVG writer for the lab's plots: grouped bar charts with
 * optional error bars (seat win rates with their intervals, game-length
 * histograms, a sweep's metrics across variants). Writes plain SVG 1.1
 * text into a pips_str; labels are escaped. The y axis has round ticks
 * (lab_nice_ticks); bars start at 0, so negative values hang below the
 * zero line. Coordinates are printed with one decimal so output is stable.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lab/lab_impl.h"

#define SVG_W 720.0
#define SVG_H 380.0
#define SVG_LEFT 64.0
#define SVG_RIGHT 16.0
#define SVG_TOP 40.0
#define SVG_BOTTOM 78.0

static const char *const palette[] = {"#4e79a7", "#f28e2b", "#59a14f", "#e15759",
                                      "#76b7b2", "#edc948", "#b07aa1", "#9c755f"};

static void cat_escaped(pips_str *out, const char *text)
{
    for (const char *p = text; *p; p++) {
        switch (*p) {
        case '&': pips_str_cat(out, "&amp;"); break;
        case '<': pips_str_cat(out, "&lt;"); break;
        case '>': pips_str_cat(out, "&gt;"); break;
        case '"': pips_str_cat(out, "&quot;"); break;
        default: pips_str_catn(out, p, 1);
        }
    }
}

static void text_at(pips_str *out, double x, double y, const char *anchor, int size,
                    const char *text)
{
    pips_str_catf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\">", x, y,
                  anchor, size);
    cat_escaped(out, text);
    pips_str_cat(out, "</text>\n");
}

/* A tick label with as many decimals as the step needs. */
static void tick_label(char *buf, size_t cap, double v, double step)
{
    int decimals = 0;
    while (decimals < 6 && fabs(step * pow(10, decimals) - round(step * pow(10, decimals))) > 1e-6)
        decimals++;
    if (fabs(v) < step * 1e-9)
        v = 0; /* no "-0" */
    snprintf(buf, cap, "%.*f", decimals, v);
}

void lab_svg_bars(pips_str *out, const char *title, const char *y_label,
                  const char *const *groups, size_t n_groups, const svg_series *series,
                  size_t n_series, double y_min, double y_max)
{
    /* the axis covers the requested range, the bars and their intervals */
    double lo = fmin(0, y_min), hi = y_max;
    for (size_t si = 0; si < n_series; si++)
        for (size_t gi = 0; gi < n_groups; gi++) {
            const svg_series *s = &series[si];
            double vals[3] = {s->value[gi], s->lo ? s->lo[gi] : NAN, s->hi ? s->hi[gi] : NAN};
            for (int k = 0; k < 3; k++)
                if (isfinite(vals[k])) {
                    lo = fmin(lo, vals[k]);
                    hi = fmax(hi, vals[k]);
                }
        }
    double first, last, step;
    lab_nice_ticks(lo, hi, 5, &first, &last, &step);
    double plot_w = SVG_W - SVG_LEFT - SVG_RIGHT, plot_h = SVG_H - SVG_TOP - SVG_BOTTOM;
    double x0 = SVG_LEFT, y_bottom = SVG_TOP + plot_h;
#define Y_OF(v) (y_bottom - plot_h * ((v) - first) / (last - first))
    double y_zero = Y_OF(0.0);
    pips_str_catf(out,
                  "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
                  "viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\">\n",
                  SVG_W, SVG_H, SVG_W, SVG_H);
    pips_str_catf(out, "<rect width=\"%.0f\" height=\"%.0f\" fill=\"white\"/>\n", SVG_W, SVG_H);
    text_at(out, SVG_W / 2, 22, "middle", 15, title);
    /* y axis: round ticks */
    int n_ticks = (int)lround((last - first) / step);
    for (int k = 0; k <= n_ticks; k++) {
        double v = first + step * k, y = Y_OF(v);
        char label[32];
        tick_label(label, sizeof label, v, step);
        pips_str_catf(out,
                      "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#ddd\"/>\n",
                      x0, y, x0 + plot_w, y);
        text_at(out, x0 - 6, y + 4, "end", 11, label);
    }
    pips_str_catf(out,
                  "<text x=\"14\" y=\"%.1f\" text-anchor=\"middle\" font-size=\"12\" "
                  "transform=\"rotate(-90 14 %.1f)\">",
                  SVG_TOP + plot_h / 2, SVG_TOP + plot_h / 2);
    cat_escaped(out, y_label);
    pips_str_cat(out, "</text>\n");
    pips_str_catf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n",
                  x0, y_zero, x0 + plot_w, y_zero);
    pips_str_catf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n",
                  x0, y_bottom, x0, SVG_TOP);
    double group_w = n_groups ? plot_w / n_groups : plot_w;
    double bar_w = group_w * 0.8 / (n_series ? n_series : 1);
    for (size_t gi = 0; gi < n_groups; gi++) {
        double gx = x0 + group_w * gi + group_w * 0.1;
        for (size_t si = 0; si < n_series; si++) {
            const svg_series *s = &series[si];
            double v = s->value[gi], bx = gx + bar_w * si;
            if (!isfinite(v))
                continue; /* no data for this bar */
            double yv = Y_OF(v);
            pips_str_catf(out,
                          "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
                          "fill=\"%s\"/>\n",
                          bx, fmin(yv, y_zero), bar_w * 0.92, fabs(y_zero - yv), palette[si % 8]);
            if (s->lo && s->hi && isfinite(s->lo[gi]) && isfinite(s->hi[gi])) {
                double cx = bx + bar_w * 0.46;
                double ylo = Y_OF(s->lo[gi]), yhi = Y_OF(s->hi[gi]);
                pips_str_catf(out,
                              "<path d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f\" "
                              "stroke=\"black\" fill=\"none\"/>\n",
                              cx, ylo, yhi, cx - 4, ylo, cx + 4, cx - 4, yhi, cx + 4);
            }
        }
        /* group labels: every one when few, otherwise every other */
        if (n_groups <= 12 || gi % 2 == 0)
            text_at(out, x0 + group_w * (gi + 0.5), y_bottom + 16, "middle", 11, groups[gi]);
    }
#undef Y_OF
    /* legend */
    double lx = x0;
    for (size_t si = 0; si < n_series; si++) {
        pips_str_catf(out,
                      "<rect x=\"%.1f\" y=\"%.1f\" width=\"12\" height=\"12\" fill=\"%s\"/>\n",
                      lx, SVG_H - 30, palette[si % 8]);
        text_at(out, lx + 16, SVG_H - 20, "start", 11, series[si].label);
        lx += 24 + 7.0 * (double)strlen(series[si].label);
    }
    pips_str_cat(out, "</svg>\n");
}
