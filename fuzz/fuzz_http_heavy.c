/*
 * fuzz_http_heavy.c — the perfect-play hints endpoint, with the requests
 * that make and change games (POST) to give it positions; the solver runs
 * within the harness's tiny budget (fuzz_http.h).
 */
#include "fuzz_http.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_http_one(data, size, FUZZ_HTTP_HINTS);
}
