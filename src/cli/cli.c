/*
 * cli.c — the helpers every `pips` command shares: flags read from a table
 * (cli_parse_flags), --opt collection, --help detection, --seed values,
 * making a game with its error printed, and how a board is drawn on this
 * terminal. Commands call in here and never into
 * each other.
 */
#define _GNU_SOURCE /* fopencookie, for the escaping stderr */
#include "cli/cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/help.h"

int cli_parse_double(const char *prog, const char *flag, const char *text, double lo, double hi,
                     const char *expected, double *out)
{
    char *end;
    double v = strtod(text, &end);
    if (*text && !*end && v >= lo && v <= hi) {
        *out = v;
        return 1;
    }
    fprintf(stderr, "%s: %s '%s': expected %s\n", prog, flag, text, expected);
    return 0;
}

int cli_wants_help(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h"))
            return 1;
    return 0;
}

int cli_parse_seed(const char *prog, const char *text, uint64_t *seed)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (*text < '0' || *text > '9' || *end || errno == ERANGE || v > UINT64_MAX) {
        fprintf(stderr, "%s: --seed '%s': expected a whole number from 0 to %llu\n", prog,
                text, (unsigned long long)UINT64_MAX);
        return 0;
    }
    *seed = v;
    return 1;
}

int cli_exit_code(const pips_error *err)
{
    switch (err->code) {
    case PIPS_ERR_IO:
    case PIPS_ERR_NOMEM:
    case PIPS_ERR_RECORD:
    case PIPS_ERR_SCRIPT:
        return 1;
    case PIPS_ERR_LIMIT:
        return 3;
    default:
        return 2;
    }
}

/* The length of the UTF-8 sequence at p (n bytes available): > 0 when it is
 * a whole valid one, 0 when it is cut short by the end of the buffer, -1
 * when it is invalid (overlong forms and surrogates included). */
static int utf8_length(const unsigned char *p, size_t n)
{
    int len = p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 ? 2 : -1;
    if (p[0] > 0xf4 || len < 0)
        return -1;
    unsigned char lo = 0x80, hi = 0xbf; /* the second byte's range */
    if (p[0] == 0xe0)
        lo = 0xa0;
    else if (p[0] == 0xed)
        hi = 0x9f;
    else if (p[0] == 0xf0)
        lo = 0x90;
    else if (p[0] == 0xf4)
        hi = 0x8f;
    for (int i = 1; i < len; i++) {
        if ((size_t)i >= n)
            return 0;
        if (p[i] < (i == 1 ? lo : 0x80) || p[i] > (i == 1 ? hi : 0xbf))
            return -1;
    }
    return len;
}

/* Escapes n bytes of in onto out; returns how many were consumed (fewer
 * than n only when the end cuts a UTF-8 sequence short and !final). */
static size_t escape_bytes(const unsigned char *in, size_t n, bool final, pips_str *out)
{
    size_t i = 0;
    while (i < n) {
        unsigned char c = in[i];
        int len = 1;
        bool plain = c == '\n' || c == '\t' || c == '\r' || (c >= 0x20 && c < 0x7f);
        if (c >= 0x80) {
            len = utf8_length(in + i, n - i);
            if (len == 0 && !final)
                return i;
            /* C1 controls (U+0080..U+009F) act on terminals too */
            plain = len > 0 && !(c == 0xc2 && in[i + 1] < 0xa0);
            if (len <= 0)
                len = 1;
        }
        if (plain) {
            pips_str_catn(out, (const char *)in + i, (size_t)len);
        } else {
            for (int k = 0; k < len; k++)
                pips_str_catf(out, "\\x%02x", in[i + (size_t)k]);
        }
        i += (size_t)len;
    }
    return i;
}

void cli_escape_text(const char *text, pips_str *out)
{
    escape_bytes((const unsigned char *)text, strlen(text), true, out);
}

#ifdef __GLIBC__
typedef struct escaping_stream {
    FILE *to;
    unsigned char pending[4]; /* the start of a UTF-8 sequence cut by a write */
    size_t n_pending;
} escaping_stream;

static ssize_t escaping_write(void *cookie, const char *buf, size_t size)
{
    escaping_stream *es = cookie;
    pips_str in, out;
    pips_str_init(&in, NULL);
    pips_str_init(&out, NULL);
    pips_str_catn(&in, (const char *)es->pending, es->n_pending);
    pips_str_catn(&in, buf, size);
    size_t used = escape_bytes((const unsigned char *)pips_str_cstr(&in), in.len, false, &out);
    es->n_pending = in.len - used; /* under 4: a cut sequence's first bytes */
    memcpy(es->pending, pips_str_cstr(&in) + used, es->n_pending);
    fwrite(pips_str_cstr(&out), 1, out.len, es->to);
    fflush(es->to);
    pips_str_free(&in);
    pips_str_free(&out);
    return (ssize_t)size;
}

static int escaping_close(void *cookie)
{
    escaping_stream *es = cookie;
    if (es->n_pending) {
        pips_str out;
        pips_str_init(&out, NULL);
        escape_bytes(es->pending, es->n_pending, true, &out);
        fwrite(pips_str_cstr(&out), 1, out.len, es->to);
        pips_str_free(&out);
    }
    return fflush(es->to);
}

void cli_escape_stderr(void)
{
    static escaping_stream es; /* lives as long as the process's stderr */
    es.to = stderr;
    cookie_io_functions_t io = {NULL, escaping_write, NULL, escaping_close};
    FILE *f = fopencookie(&es, "w", io);
    if (!f)
        return; /* messages go out unescaped rather than not at all */
    setvbuf(f, NULL, _IOLBF, 0);
    stderr = f;
}
#else
void cli_escape_stderr(void) {}
#endif

pips_game *cli_make_game(const char *prog, const char *name, const char *const *opts,
                         size_t nopts)
{
    pips_error err;
    pips_game *g = pips_game_new(name, opts, nopts, NULL, &err);
    if (!g)
        fprintf(stderr, "%s: %s\n", prog, err.msg);
    return g;
}

void cli_print_option(const pips_option_def *od, const char *indent)
{
    pips_str acc;
    pips_str_init(&acc, NULL);
    pips_option_accepts(od, &acc);
    printf("%s%s=%s  (%s) %s\n", indent, od->key, od->default_value, pips_str_cstr(&acc),
           od->help);
    pips_str_free(&acc);
}

pips_render_opts cli_render_opts(bool tty)
{
    const char *no_color = getenv("NO_COLOR");
    pips_render_opts ro = {tty, tty && !(no_color && *no_color)};
    return ro;
}

int cli_collect_opt(const char *prog, int argc, char **argv, int *i, const char **opts,
                    size_t *nopts)
{
    if (*i + 1 >= argc) {
        fprintf(stderr, "%s: --opt needs KEY=VALUE\n", prog);
        return 0;
    }
    if (*nopts >= PIPS_MAX_OPTIONS) {
        fprintf(stderr, "%s: too many --opt (at most %d)\n", prog, PIPS_MAX_OPTIONS);
        return 0;
    }
    opts[(*nopts)++] = argv[++*i];
    return 1;
}

int cli_take_name(const char *prog, const char *arg, const char **name)
{
    if (arg[0] == '-' && arg[1] == '-') {
        fprintf(stderr, "%s: unknown flag '%s' (or a missing value)\n", prog, arg);
        return 0;
    }
    if (*name) {
        fprintf(stderr, "%s: unexpected argument '%s'\n", prog, arg);
        return 0;
    }
    *name = arg;
    return 1;
}

/* Reads flag f (argv[*i] is its name) and its value, when it takes one;
 * false with a message. */
static bool read_flag(const char *prog, const cli_flag *f, int argc, char **argv, int *i)
{
    const char *flag = argv[*i];
    if (f->kind == CLI_FLAG_SWITCH) {
        *(bool *)f->out = true;
        return true;
    }
    if (*i + 1 >= argc) { /* only a list gets here without its value */
        fprintf(stderr, "%s: %s needs %s\n", prog, flag, f->expected);
        return false;
    }
    const char *text = argv[++*i];
    switch (f->kind) {
    case CLI_FLAG_LONG:
        return cli_parse_long(prog, flag, text, f->min, f->max, f->out);
    case CLI_FLAG_DOUBLE:
        return cli_parse_double(prog, flag, text, f->lo, f->hi, f->expected, f->out);
    case CLI_FLAG_SEED:
        return cli_parse_seed(prog, text, f->out);
    case CLI_FLAG_CHOICE:
        if (f->parse(text, f->out))
            return true;
        fprintf(stderr, "%s: %s '%s': expected %s\n", prog, flag, text, f->expected);
        return false;
    case CLI_FLAG_LIST:
        if (*f->count >= f->cap) {
            fprintf(stderr, "%s: too many %s (at most %zu)\n", prog, flag, f->cap);
            return false;
        }
        ((const char **)f->out)[(*f->count)++] = text;
        return true;
    default: /* CLI_FLAG_TEXT */
        *(const char **)f->out = text;
        return true;
    }
}

bool cli_parse_flags_args(const char *prog, int argc, char **argv, const cli_flag *flags,
                          size_t n_flags, const char **names, size_t n_names)
{
    for (int i = 1; i < argc; i++) {
        const cli_flag *f = NULL;
        for (size_t k = 0; k < n_flags && !f; k++)
            if (!strcmp(argv[i], flags[k].name))
                f = &flags[k];
        /* a flag missing its value is taken for an unknown one ("unknown flag
         * '--games' (or a missing value)"); a list says what it needs */
        if (f && i + 1 >= argc && f->kind != CLI_FLAG_SWITCH && f->kind != CLI_FLAG_LIST)
            f = NULL;
        size_t free_slot = 0; /* the first name not given yet, else the last (refused) */
        while (free_slot + 1 < n_names && names[free_slot])
            free_slot++;
        if (f ? !read_flag(prog, f, argc, argv, &i)
              : !cli_take_name(prog, argv[i], &names[free_slot]))
            return false;
    }
    return true;
}

bool cli_parse_flags(const char *prog, int argc, char **argv, const cli_flag *flags,
                     size_t n_flags, const char **name)
{
    return cli_parse_flags_args(prog, argc, argv, flags, n_flags, name, 1);
}

int cli_parse_long(const char *prog, const char *flag, const char *text, long lo, long hi,
                   long *out)
{
    if (pips_parse_int(text, lo, hi, out))
        return 1;
    fprintf(stderr, "%s: %s '%s': expected a whole number from %ld to %ld\n", prog, flag, text,
            lo, hi);
    return 0;
}

void cli_print_ply(const pips_match *m, size_t i, const char *who)
{
    const pips_game *g = m->game;
    const void *before = m->history + i * g->def->state_size;
    char text[PIPS_MOVE_TEXT_MAX];
    pips_match_move_text(m, i, text);
    int seat = pips_to_move(g, before);
    if (seat >= 0 && !who)
        who = m->seats[seat];
    if (seat < 0)
        printf("%zu. roll: %s\n", i + 1, text);
    else
        printf("%zu. seat %d%s%s%s: %s\n", i + 1, seat + 1, who ? " (" : "", who ? who : "",
               who ? ")" : "", text);
}

const char *cli_value_legend(const pips_game *g)
{
    return pips_num_players(g) == 2
               ? "what the move is worth to the seat playing it, its expected return: 0 a "
                 "loss, 1 a win, 0.5 a draw; win, loss or draw when the search proved it"
               : "what the move is worth to the seat playing it, its expected return: 0 a "
                 "loss, 1 a win; =X when the search proved it";
}

int cli_text_width(void)
{
    struct winsize ws;
    if (!isatty(1) || ioctl(1, TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0)
        return 80;
    return ws.ws_col < 40 ? 40 : ws.ws_col;
}

/* True when line opens a paragraph of its own: a ruling id such as
 * "NIM-R4" or "ZIG-R12", or a "- " list item. */
static bool opens_paragraph(const char *line)
{
    if (line[0] == '-' && line[1] == ' ')
        return true;
    size_t caps = strspn(line, "ABCDEFGHIJKLMNOPQRSTUVWXYZ");
    return caps >= 2 && caps <= 4 && line[caps] == '-' && line[caps + 1] >= 'A' &&
           line[caps + 1] <= 'Z' && line[caps + 2] >= '0' && line[caps + 2] <= '9';
}

void cli_print_reflowed(const char *text, int width)
{
    pips_str para;
    pips_str_init(&para, NULL);
    int first_indent = 0, hang = 0;
    bool open = false;
    for (const char *p = text;;) {
        size_t len = strcspn(p, "\n");
        size_t indent = strspn(p, " ");
        bool blank = indent >= len, last = !p[len];
        bool starts = blank || !open || (indent == 0 && opens_paragraph(p));
        if (open && starts) { /* print the paragraph gathered so far */
            printf("%*s", first_indent, "");
            cli_print_wrapped(stdout, pips_str_cstr(&para), hang, first_indent, width);
            pips_str_clear(&para);
            open = false;
        }
        if (blank) {
            if (!last)
                printf("\n");
        } else {
            if (!open) {
                first_indent = (int)indent;
                hang = first_indent + (opens_paragraph(p + indent) ? 2 : 0);
                open = true;
            } else {
                pips_str_cat(&para, " ");
                if (indent > 0)
                    hang = (int)indent;
            }
            pips_str_catn(&para, p + indent, len - indent);
        }
        if (last)
            break;
        p += len + 1;
    }
    if (open) {
        printf("%*s", first_indent, "");
        cli_print_wrapped(stdout, pips_str_cstr(&para), hang, first_indent, width);
    }
    pips_str_free(&para);
}

bool cli_exe_dir(char *buf, size_t size)
{
    ssize_t n = size > 1 ? readlink("/proc/self/exe", buf, size - 1) : -1;
    if (n <= 0)
        return false;
    buf[n] = '\0';
    char *slash = strrchr(buf, '/');
    if (!slash)
        return false;
    *slash = '\0';
    return true;
}

const char *cli_docs_path(const char *rel, char *buf, size_t size)
{
    struct stat st;
    char exe[4096];
    if (cli_exe_dir(exe, sizeof exe)) {
        char *prefix_end = strrchr(exe, '/'); /* PREFIX/bin -> PREFIX */
        if (prefix_end)
            *prefix_end = '\0';
        bool absolute = PIPS_INSTALL_DOCDIR[0] == '/';
        int len = snprintf(buf, size, "%s%s%s/%s", absolute ? "" : prefix_end ? exe : ".",
                           absolute ? "" : "/", PIPS_INSTALL_DOCDIR, rel);
        if (len > 0 && (size_t)len < size && stat(buf, &st) == 0)
            return buf;
    }
    int len = snprintf(buf, size, "%s/%s", PIPS_SOURCE_DOCS, rel);
    return len > 0 && (size_t)len < size && stat(buf, &st) == 0 ? buf : NULL;
}
