/*
 * version.c — pips_version(): the library's version string, fixed when the
 * library is built (from the generated pips/version.h).
 */
#include "pips/version.h"

const char *pips_version(void) { return PIPS_VERSION_STRING; }
