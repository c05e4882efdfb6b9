/*
 * static.c — the web UI's files from web/ (issue 27): gzip when the client
 * accepts it (zlib, compressed per request; a revalidated file costs no
 * compression), an ETag on every file, and content-hashed URLs.
 *
 * There is no build step, so the hashes are made when index.html is asked
 * for: the page is sent with an import map that maps every module under
 * web/ ("/lobby.js") to "/lobby.js?v=HASH", and its stylesheet and entry
 * script carry ?v=HASH too. A request whose v= is the file's current hash is
 * cached for a year (immutable); everything else, index.html included, is
 * "no-cache": the browser revalidates with If-None-Match and gets 304 while
 * nothing changed, so a new build is picked up on the next load.
 * Invariants: only plain names under the web root are served (letters,
 * digits, '-', '_', '.', '/'; no "..", no "//"); no lock is taken: the
 * handler reads only the server's immutable configuration.
 */
#include "server/server_impl.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <zlib.h>

#define MAX_STATIC_BYTES (4u << 20)
#define HASH_CHARS 12 /* of the 16 hex digits of a 64-bit FNV-1a */
#define IMMUTABLE "public, max-age=31536000, immutable"

static const char *mime_type(const char *path)
{
    const char *dot = strrchr(path, '.');
    static const struct { const char *ext, *type; } types[] = {
        {".html", "text/html; charset=utf-8"}, {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"}, {".css", "text/css; charset=utf-8"},
        {".svg", "image/svg+xml"}, {".json", "application/json"}, {".png", "image/png"},
        {".ico", "image/x-icon"}, {".txt", "text/plain; charset=utf-8"},
    };
    for (size_t i = 0; dot && i < sizeof types / sizeof types[0]; i++)
        if (!strcmp(dot, types[i].ext))
            return types[i].type;
    return "application/octet-stream";
}

static bool compressible(const char *type)
{
    return !strncmp(type, "text/", 5) || !strcmp(type, "image/svg+xml") ||
           !strcmp(type, "application/json");
}

static void hash_hex(const char *data, size_t len, char out[HASH_CHARS + 1])
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)data[i];
        h *= 1099511628211ull;
    }
    char full[17];
    snprintf(full, sizeof full, "%016llx", (unsigned long long)h);
    memcpy(out, full, HASH_CHARS);
    out[HASH_CHARS] = '\0';
}

/* The whole file at root + path (malloc'ed, NUL-terminated), or NULL. */
static char *read_file(const char *root, const char *path, size_t *len)
{
    char full[1400];
    snprintf(full, sizeof full, "%s%s", root, path);
    FILE *f = fopen(full, "rb");
    struct stat st;
    if (!f || fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > MAX_STATIC_BYTES) {
        if (f)
            fclose(f);
        return NULL;
    }
    char *buf = malloc((size_t)st.st_size + 1);
    size_t got = buf ? fread(buf, 1, (size_t)st.st_size, f) : 0;
    fclose(f);
    if (!buf || got != (size_t)st.st_size) {
        free(buf);
        return NULL;
    }
    buf[got] = '\0';
    *len = got;
    return buf;
}

/* Appends "\"/dir/name.js\": \"/dir/name.js?v=HASH\"," for every module in
 * root/dir (and one level of subdirectories). */
static void map_modules(const char *root, const char *dir, pips_str *out, int depth)
{
    char path[1024];
    snprintf(path, sizeof path, "%s%s", root, dir);
    DIR *d = opendir(path);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *n = e->d_name;
        if (n[0] == '.')
            continue;
        char rel[1024];
        snprintf(rel, sizeof rel, "%s/%s", dir, n);
        size_t nl = strlen(n);
        if (nl > 3 && !strcmp(n + nl - 3, ".js")) {
            size_t len;
            char *body = read_file(root, rel, &len);
            if (body) {
                char h[HASH_CHARS + 1];
                hash_hex(body, len, h);
                pips_str_catf(out, "%s\"%s\":\"%s?v=%s\"", pips_str_cstr(out)[0] ? "," : "", rel,
                              rel, h);
                free(body);
            }
        } else if (depth > 0 && strchr(n, '.') == NULL) {
            map_modules(root, rel, out, depth - 1);
        }
    }
    closedir(d);
}

/* index.html with its assets' hashed URLs and the import map. */
static char *render_index(const char *root, size_t *len)
{
    size_t tl;
    char *tpl = read_file(root, "/index.html", &tl);
    if (!tpl)
        return NULL;
    pips_str map, out;
    pips_str_init(&map, NULL);
    pips_str_init(&out, NULL);
    map_modules(root, "", &map, 1);
    static const char *const linked[] = {"\"/style.css\"", "\"/app.js\""};
    const char *p = tpl;
    bool mapped = false;
    while (*p) {
        if (!mapped && !strncmp(p, "<script type=\"module\"", 21)) {
            pips_str_catf(&out, "<script type=\"importmap\">{\"imports\":{%s}}</script>\n  ",
                          pips_str_cstr(&map));
            mapped = true;
        }
        bool done = false;
        for (size_t i = 0; i < sizeof linked / sizeof linked[0] && !done; i++) {
            size_t ll = strlen(linked[i]);
            if (strncmp(p, linked[i], ll))
                continue;
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)(ll - 2), linked[i] + 1);
            size_t fl;
            char *body = read_file(root, name, &fl);
            if (body) {
                char h[HASH_CHARS + 1];
                hash_hex(body, fl, h);
                pips_str_catf(&out, "\"%s?v=%s\"", name, h);
                free(body);
                p += ll;
                done = true;
            }
        }
        if (!done)
            pips_str_catn(&out, p++, 1);
    }
    free(tpl);
    pips_str_free(&map);
    char *text = strdup(pips_str_cstr(&out));
    pips_str_free(&out);
    if (text)
        *len = strlen(text);
    return text;
}

/* gzip of data (malloc'ed), or NULL. */
static char *gzip(const char *data, size_t len, size_t *out_len)
{
    z_stream z;
    memset(&z, 0, sizeof z);
    if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
        return NULL;
    size_t cap = deflateBound(&z, (uLong)len);
    char *out = malloc(cap);
    if (!out) {
        deflateEnd(&z);
        return NULL;
    }
    z.next_in = (Bytef *)data;
    z.avail_in = (uInt)len;
    z.next_out = (Bytef *)out;
    z.avail_out = (uInt)cap;
    int rc = deflate(&z, Z_FINISH);
    *out_len = z.total_out;
    deflateEnd(&z);
    if (rc != Z_STREAM_END) {
        free(out);
        return NULL;
    }
    return out;
}

static const char *header_value(const pips_http_request *req, const char *name)
{
    for (size_t i = 0; i < req->n_headers; i++)
        if (req->headers[i].name && !strcasecmp(req->headers[i].name, name))
            return req->headers[i].value;
    return NULL;
}

/* Whether an Accept-Encoding value accepts gzip (not "gzip;q=0"). */
static bool accepts_gzip(const char *ae)
{
    for (const char *p = ae; p && *p;) {
        while (*p == ' ' || *p == ',')
            p++;
        const char *end = strchr(p, ',');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n >= 4 && !strncasecmp(p, "gzip", 4) && (n == 4 || p[4] == ';' || p[4] == ' ')) {
            const char *qv = p + 4;
            while (qv < p + n && *qv != '=')
                qv++;
            return qv >= p + n || strtod(qv + 1, NULL) > 0;
        }
        p = end;
    }
    return false;
}

/* Whether If-None-Match lists etag (or is "*"). */
static bool etag_matches(const char *inm, const char *etag)
{
    if (!inm)
        return false;
    if (!strcmp(inm, "*"))
        return true;
    size_t el = strlen(etag);
    for (const char *p = inm; (p = strstr(p, etag)); p += el)
        if ((p == inm || p[-1] == ' ' || p[-1] == ',' || p[-1] == '/') &&
            (p[el] == '\0' || p[el] == ',' || p[el] == ' '))
            return true;
    return false;
}

static void not_found(pips_http_response *res)
{
    static const char msg[] = "{\"error\":\"no such resource\"}";
    res->status = 404;
    snprintf(res->content_type, sizeof res->content_type, "application/json");
    res->body = strdup(msg);
    res->body_len = res->body ? strlen(msg) : 0;
}

void srv_serve_static(pips_server *s, const pips_http_request *req, pips_http_response *res)
{
    const char *path = req->path ? req->path : "/";
    if (!s->cfg.web_root) {
        not_found(res);
        return;
    }
    if (!strcmp(path, "/"))
        path = "/index.html";
    size_t plen = strlen(path);
    bool ok = plen > 1 && plen < 200 && path[0] == '/' && !strstr(path, "..") && !strstr(path, "//");
    for (size_t i = 0; ok && i < plen; i++)
        ok = isalnum((unsigned char)path[i]) || strchr("-_./", path[i]);
    size_t len = 0;
    char *body = !ok ? NULL
                 : !strcmp(path, "/index.html") ? render_index(s->cfg.web_root, &len)
                                                 : read_file(s->cfg.web_root, path, &len);
    if (!body) {
        not_found(res);
        return;
    }
    const char *type = mime_type(path);
    char hash[HASH_CHARS + 1], v[32] = "";
    hash_hex(body, len, hash);
    bool zip = compressible(type) && accepts_gzip(header_value(req, "Accept-Encoding"));
    snprintf(res->etag, sizeof res->etag, "\"%s%s\"", hash, zip ? "-gz" : "");
    const char *q = req->query;
    bool hashed = q && !strncmp(q, "v=", 2) && (snprintf(v, sizeof v, "%s", q + 2), !strcmp(v, hash));
    snprintf(res->cache_control, sizeof res->cache_control, "%s", hashed ? IMMUTABLE : "no-cache");
    res->vary_encoding = compressible(type);
    snprintf(res->content_type, sizeof res->content_type, "%s", type);
    if (etag_matches(header_value(req, "If-None-Match"), res->etag)) {
        free(body);
        res->status = 304;
        return;
    }
    if (zip) {
        size_t zl;
        char *z = gzip(body, len, &zl);
        if (z) {
            free(body);
            body = z;
            len = zl;
            snprintf(res->content_encoding, sizeof res->content_encoding, "gzip");
        } else {
            snprintf(res->etag, sizeof res->etag, "\"%s\"", hash);
        }
    }
    res->status = 200;
    res->body = body;
    res->body_len = len;
}
