/*
 * cache.c — answers that never change while the server runs (GET
 * /api/rules, GET /api/agents per game and options), computed once and kept
 * with an ETag, so a page load costs a copy instead of building every
 * game's agents again.
 *
 * Invariants: an entry, once stored, is never changed or removed until the
 * server is freed; its key names everything the answer depends on (for
 * /api/agents the game and its options as the library normalises them, so
 * a change in how agents resolve per seat count is keyed by the options
 * that cause it). The table is bounded: past SRV_CACHE_MAX entries answers
 * are computed and not kept. cache_mu guards the table and never waits on
 * s->mu, so the cache can be read without the server lock.
 */
#include "server/server_impl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SRV_CACHE_MAX 512

typedef struct cache_entry {
    char *key;
    char *body;
    size_t len;
    char etag[SRV_ETAG_MAX];
} cache_entry;

struct srv_cache {
    pthread_mutex_t mu;
    cache_entry entries[SRV_CACHE_MAX];
    size_t n;
    unsigned long long hits, misses;
};

bool srv_cache_init(pips_server *s)
{
    s->cache = calloc(1, sizeof *s->cache);
    if (!s->cache)
        return false;
    pthread_mutex_init(&s->cache->mu, NULL);
    return true;
}

void srv_cache_free(pips_server *s)
{
    struct srv_cache *c = s->cache;
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++) {
        free(c->entries[i].key);
        free(c->entries[i].body);
    }
    pthread_mutex_destroy(&c->mu);
    free(c);
    s->cache = NULL;
}

/* A strong validator: FNV-1a 64 of the body, quoted as RFC 9110 asks. */
static void make_etag(const char *body, size_t len, char *etag)
{
    unsigned long long h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)body[i];
        h *= 0x100000001b3ull;
    }
    snprintf(etag, SRV_ETAG_MAX, "\"%016llx\"", h);
}

/* Whether an If-None-Match header value names etag (a list, or "*"). */
static bool etag_matches(const char *if_none_match, const char *etag)
{
    if (!if_none_match)
        return false;
    if (!strcmp(if_none_match, "*"))
        return true;
    size_t n = strlen(etag);
    for (const char *p = if_none_match; (p = strstr(p, etag)); p += n) {
        /* a whole list item, possibly weak (W/"...") */
        bool start = p == if_none_match || p[-1] == ' ' || p[-1] == ',' || p[-1] == '/';
        bool end = p[n] == '\0' || p[n] == ',' || p[n] == ' ';
        if (start && end)
            return true;
    }
    return false;
}

/* Answers from an entry: 304 when the client holds it, else a copy. */
static void reply_entry(const cache_entry *e, const char *if_none_match,
                        pips_http_response *res)
{
    snprintf(res->content_type, sizeof res->content_type, "application/json");
    snprintf(res->etag, sizeof res->etag, "%s", e->etag);
    /* the client keeps it but asks each time: a restarted server may differ */
    snprintf(res->cache_control, sizeof res->cache_control, "no-cache");
    free(res->body);
    res->body = NULL;
    res->body_len = 0;
    if (etag_matches(if_none_match, e->etag)) {
        res->status = 304;
        return;
    }
    res->body = malloc(e->len + 1);
    if (!res->body) {
        res->status = 500;
        res->etag[0] = res->cache_control[0] = '\0';
        res->body = strdup("{\"error\":\"out of memory\"}");
        res->body_len = res->body ? strlen(res->body) : 0;
        return;
    }
    memcpy(res->body, e->body, e->len + 1);
    res->body_len = e->len;
    res->status = 200;
}

static cache_entry *find(struct srv_cache *c, const char *key)
{
    for (size_t i = 0; i < c->n; i++)
        if (!strcmp(c->entries[i].key, key))
            return &c->entries[i];
    return NULL;
}

bool srv_cache_reply(pips_server *s, const char *key, const char *if_none_match,
                     pips_http_response *res)
{
    struct srv_cache *c = s->cache;
    pthread_mutex_lock(&c->mu);
    cache_entry *e = find(c, key);
    if (e) {
        c->hits++;
        reply_entry(e, if_none_match, res);
    } else {
        c->misses++;
    }
    pthread_mutex_unlock(&c->mu);
    return e != NULL;
}

void srv_cache_store(pips_server *s, const char *key, json_t *o, const char *if_none_match,
                     pips_http_response *res)
{
    struct srv_cache *c = s->cache;
    cache_entry fresh = {0};
    fresh.body = o ? json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(o);
    fresh.key = strdup(key);
    if (!fresh.body || !fresh.key) {
        free(fresh.body);
        free(fresh.key);
        res->status = 500;
        snprintf(res->content_type, sizeof res->content_type, "application/json");
        free(res->body);
        res->body = strdup("{\"error\":\"out of memory\"}");
        res->body_len = res->body ? strlen(res->body) : 0;
        return;
    }
    fresh.len = strlen(fresh.body);
    make_etag(fresh.body, fresh.len, fresh.etag);
    pthread_mutex_lock(&c->mu);
    cache_entry *e = find(c, key); /* another request may have stored it meanwhile */
    if (!e && c->n < SRV_CACHE_MAX) {
        c->entries[c->n] = fresh;
        e = &c->entries[c->n++];
        fresh.key = fresh.body = NULL;
    }
    reply_entry(e ? e : &fresh, if_none_match, res);
    pthread_mutex_unlock(&c->mu);
    free(fresh.key);
    free(fresh.body);
}

void srv_cache_counts(pips_server *s, unsigned long long *hits, unsigned long long *misses,
                      size_t *entries)
{
    struct srv_cache *c = s->cache;
    pthread_mutex_lock(&c->mu);
    *hits = c->hits;
    *misses = c->misses;
    *entries = c->n;
    pthread_mutex_unlock(&c->mu);
}
