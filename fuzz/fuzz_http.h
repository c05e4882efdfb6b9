/*
 * fuzz_http.h — the harness both HTTP fuzz targets share: one in-memory
 * server per process with tiny budgets for the expensive endpoints, a raw
 * request "METHOD /path[?query]\n" then the body, and the checks on every
 * answer (a valid status; every /api/ error carries a JSON "error").
 * fuzz_http leaves out the perfect-play hints, whose solves (even within a
 * 2 ms budget) would take most of its time; fuzz_http_heavy sends only them.
 */
#ifndef PIPS_FUZZ_HTTP_H
#define PIPS_FUZZ_HTTP_H

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "pips/server.h"

enum { FUZZ_HTTP_LIGHT, FUZZ_HTTP_HINTS };

static pips_server *fuzz_server; /* one in-memory server for the fuzzing process */

static inline int fuzz_http_one(const uint8_t *data, size_t size, int which)
{
    if (!fuzz_server) {
        pips_server_config cfg = {.db_path = ":memory:", .max_games = 64, .max_body = 4096,
                                  .max_think_seconds = 0.05, .ai_threads = 1,
                                  .hint_seconds = 0.002, .hint_table_mb = 1};
        fuzz_server = pips_server_new(&cfg, NULL);
        FUZZ_ASSERT(fuzz_server);
    }
    char *text = malloc(size + 1);
    memcpy(text, data, size);
    text[size] = '\0';
    char *nl = memchr(text, '\n', size);
    size_t head_len = nl ? (size_t)(nl - text) : size;
    char *head = strndup(text, head_len);
    const char *body = nl ? nl + 1 : "";
    size_t body_len = nl ? size - head_len - 1 : 0;
    char *space = strchr(head, ' ');
    const char *method = head, *path = "/";
    if (space) {
        *space = '\0';
        path = space + 1;
    }
    char *query = strchr(path, '?');
    if (query)
        *query++ = '\0';
    size_t plen = strlen(path);
    bool hints = plen >= 6 && !strcmp(path + plen - 6, "/hints");
    /* the hints target still makes games and plays moves, to have positions */
    bool skip = which == FUZZ_HTTP_LIGHT ? hints : !hints && !strcmp(method, "GET");
    if (!skip) {
        pips_http_header hdr = {"Content-Type", "application/json"};
        pips_http_request req = {method, path, query, &hdr, 1, body, body_len, NULL};
        pips_http_response res;
        memset(&res, 0, sizeof res);
        pips_server_handle(fuzz_server, &req, &res);
        FUZZ_ASSERT(res.status >= 200 && res.status <= 599);
        if (res.status >= 400 && !strncmp(path, "/api/", 5)) {
            json_t *j = json_loadb(res.body, res.body_len, 0, NULL);
            FUZZ_ASSERT(j && json_is_string(json_object_get(j, "error")));
            json_decref(j);
        }
        pips_http_response_free(&res);
    }
    free(head);
    free(text);
    return 0;
}

#endif
