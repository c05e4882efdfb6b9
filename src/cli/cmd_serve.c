/*
 * cmd_serve.c — `pips serve`: runs the game server (HTTP JSON API, web UI,
 * SQLite store) until SIGINT or SIGTERM. The server itself lives in the
 * library (pips/server.h); this file only reads flags, picks the default
 * database path and waits for a signal.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/help.h"
#include "pips/server.h"

#ifndef PIPS_WEB_DIR
#define PIPS_WEB_DIR "web"
#endif

/* mkdir -p for the directory part of path. */
static bool make_parent_dirs(const char *path)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
        return false;
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0700) != 0 && errno != EEXIST)
            return false;
        *p = '/';
    }
    return true;
}

/* The web UI's files: beside an installed pips (PREFIX/bin/pips finds
 * PREFIX/share/pips/web), else the source tree's web/ it was built from. */
static const char *default_web_dir(char *buf, size_t size)
{
    char exe[4096];
    if (cli_exe_dir(exe, sizeof exe)) {
        struct stat st;
        int len = snprintf(buf, size, "%s/../share/pips/web", exe);
        char index[4200];
        snprintf(index, sizeof index, "%s/index.html", buf);
        if (len > 0 && (size_t)len < size && stat(index, &st) == 0)
            return buf;
    }
    return PIPS_WEB_DIR;
}

static bool default_db_path(char *out, size_t size)
{
    const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    int n;
    if (xdg && *xdg == '/')
        n = snprintf(out, size, "%s/pips/pips.db", xdg);
    else if (home && *home)
        n = snprintf(out, size, "%s/.local/share/pips/pips.db", home);
    else
        return false;
    return n > 0 && (size_t)n < size;
}

/* --sync full|normal: whether SQLite syncs every commit to disk. */
static bool parse_sync(const char *text, void *out)
{
    if (strcmp(text, "full") != 0 && strcmp(text, "normal") != 0)
        return false;
    *(bool *)out = !strcmp(text, "full");
    return true;
}

int cli_serve(int argc, char **argv)
{
    char web_buf[4096];
    const char *bind = "127.0.0.1", *db = NULL, *web = default_web_dir(web_buf, sizeof web_buf);
    long port = 8080;
    pips_server_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.sync_full = false;
    long ai_threads = 0, max_games = 0, max_think = 0, max_hints = 0, max_uploads = 0,
         max_listings = 0, per_client = 0, per_ip = 0; /* 0: the server's default */
    const char *operand = NULL; /* serve takes none */
    const cli_flag flags[] = {
        CLI_LONG("--port", &port, 0, 65535),
        CLI_LONG("--ai-threads", &ai_threads, 1, 16),
        CLI_LONG("--max-games", &max_games, 1, 10000000),
        CLI_LONG("--max-think", &max_think, 1, 3600),
        CLI_LONG("--max-hints", &max_hints, 1, 16),
        CLI_LONG("--max-uploads", &max_uploads, 1, 16),
        CLI_LONG("--max-listings", &max_listings, 1, 16),
        CLI_LONG("--per-client", &per_client, 1, 1000),
        CLI_LONG("--per-ip-connections", &per_ip, 0, 4000),
        CLI_TEXT("--bind", &bind),
        CLI_TEXT("--db", &db),
        CLI_TEXT("--web", &web),
        CLI_TEXT("--rules-dir", &cfg.rules_dir),
        CLI_CHOICE("--sync", &cfg.sync_full, parse_sync, "full or normal"),
    };
    bool ok = cli_parse_flags("pips serve", argc, argv, flags, sizeof flags / sizeof *flags,
                              &operand);
    if (ok && operand) {
        fprintf(stderr, "pips serve: unexpected argument '%s'\n", operand);
        ok = false;
    }
    if (!ok) {
        cli_print_usage(stderr, cli_doc_find("serve"));
        return 2;
    }
    cfg.ai_threads = (int)ai_threads;
    cfg.max_games = (size_t)max_games;
    cfg.max_think_seconds = (double)max_think;
    cfg.max_hints = (int)max_hints;
    cfg.max_uploads = (int)max_uploads;
    cfg.max_listings = (int)max_listings;
    cfg.per_client = (int)per_client;
    cfg.per_ip_connections = (int)per_ip;
    char dbpath[4096];
    if (!db) {
        if (!default_db_path(dbpath, sizeof dbpath)) {
            fprintf(stderr, "pips serve: no HOME or XDG_DATA_HOME; give --db PATH\n");
            return 1;
        }
        db = dbpath;
    }
    if (strcmp(db, ":memory:") != 0 && !make_parent_dirs(db)) {
        fprintf(stderr, "pips serve: cannot create the directory of '%s': %s\n", db,
                strerror(errno));
        return 1;
    }
    cfg.db_path = db;
    cfg.web_root = web;

    /* block the stop signals in every thread; the main thread waits for them */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    signal(SIGPIPE, SIG_IGN);

    pips_error err;
    pips_server *s = pips_server_new(&cfg, &err);
    if (!s) {
        fprintf(stderr, "pips serve: %s\n", err.msg);
        return 1;
    }
    if (pips_server_broken_games(s))
        fprintf(stderr, "pips serve: %zu stored games failed to replay and are not served\n",
                pips_server_broken_games(s));
    if (!pips_server_listen(s, bind, (int)port, &err)) {
        fprintf(stderr, "pips serve: %s\n", err.msg);
        pips_server_free(s);
        return 1;
    }
    const char *fmt = strchr(bind, ':') ? "pips: listening on http://[%s]:%d/ (database %s)\n"
                                        : "pips: listening on http://%s:%d/ (database %s)\n";
    printf(fmt, bind, pips_server_port(s), db);
    fflush(stdout);
    int sig = 0;
    sigwait(&stop, &sig);
    fprintf(stderr, "pips serve: stopping (signal %d)\n", sig);
    pips_server_free(s);
    return 0;
}
