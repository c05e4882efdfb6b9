/*
 * fuzz_http.c — the web API's request handler, fed raw requests without
 * sockets (the harness is fuzz_http.h): every endpoint but the hints, which
 * fuzz_http_heavy covers.
 */
#include "fuzz_http.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_http_one(data, size, FUZZ_HTTP_LIGHT);
}
