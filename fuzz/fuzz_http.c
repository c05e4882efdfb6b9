/*
 * fuzz_http.c — the web API's request handler, fed raw requests without
 * sockets. Input: "METHOD /path[?query]\n" then the body. Every answer must be
 * a valid HTTP status, and every /api/ error must carry a JSON body.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "pips/server.h"

static pips_server *server; /* one in-memory server for the fuzzing process */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!server) {
        pips_server_config cfg = {":memory:", NULL, 64, 4096, 0.05, 1, false};
        server = pips_server_new(&cfg, NULL);
        FUZZ_ASSERT(server);
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
    pips_http_header hdr = {"Content-Type", "application/json"};
    pips_http_request req = {method, path, query, &hdr, 1, body, body_len, NULL};
    pips_http_response res;
    memset(&res, 0, sizeof res);
    pips_server_handle(server, &req, &res);
    FUZZ_ASSERT(res.status >= 200 && res.status <= 599);
    if (res.status >= 400 && !strncmp(path, "/api/", 5)) {
        json_t *j = json_loadb(res.body, res.body_len, 0, NULL);
        FUZZ_ASSERT(j && json_is_string(json_object_get(j, "error")));
        json_decref(j);
    }
    pips_http_response_free(&res);
    free(head);
    free(text);
    return 0;
}
