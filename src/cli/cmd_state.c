/*
 * cmd_state.c — `pips state`: shows a position (the start, or the state text
 * given with --state) as the terminal drawing and its state text, or with
 * --json as the library's state object {"game", "options", "to_move",
 * "over", "view", "state"} (pips/view.h) on one line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/help.h"
#include "pips/view.h"
#include "core/unchecked.h"

static void state_usage(FILE *f) { cli_print_usage(f, cli_doc_find("state")); }

int cli_state(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        state_usage(stdout);
        return 0;
    }
    const char *prog = "pips state";
    const char *name = NULL, *state_text = NULL;
    const char *opts[PIPS_MAX_OPTIONS];
    size_t nopts = 0;
    bool json = false;
    const cli_flag flags[] = {
        CLI_LIST("--opt", opts, &nopts, PIPS_MAX_OPTIONS, "KEY=VALUE"),
        CLI_TEXT("--state", &state_text),
        CLI_SWITCH("--json", &json),
    };
    if (!cli_parse_flags(prog, argc, argv, flags, sizeof flags / sizeof *flags, &name))
        return 2;
    if (!name) {
        fprintf(stderr, "%s: missing GAME\n", prog);
        state_usage(stderr);
        return 2;
    }
    pips_game *g = cli_make_game(prog, name, opts, nopts);
    if (!g)
        return 2;
    int rc = 2;
    pips_error err;
    char *text = NULL;
    void *state = pips_state_new(g, &err);
    if (!state) {
        rc = 1;
        goto done;
    }
    if (!state_text) {
        g->def->initial(g, state);
    } else if (!g->def->state_from_text(g, state_text, state, &err)) {
        goto done;
    }
    if (json) {
        text = state_json_unchecked(g, state, &err);
        if (!text) {
            rc = 1;
            goto done;
        }
        printf("%s\n", text);
    } else {
        pips_render_opts ro = {false, false};
        pips_str out;
        pips_str_init(&out, NULL);
        g->def->render(g, state, &ro, &out);
        pips_str_cat(&out, "state: ");
        g->def->state_to_text(g, state, &out);
        printf("%s\n", pips_str_cstr(&out));
        pips_str_free(&out);
    }
    rc = 0;
done:
    if (rc)
        fprintf(stderr, "%s: %s%s\n", prog, state_text && rc == 2 ? "--state: " : "", err.msg);
    free(text);
    pips_state_free(g, state);
    pips_game_free(g);
    return rc;
}
