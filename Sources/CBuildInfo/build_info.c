#include "lp_build_info.h"

// scripts/package-deb.sh writes build_commit.h (`#define LP_BUILD_COMMIT 4d78a2a`) for its build
// alone; the hash comes bare, one preprocessing token, and is stringified here.
#if __has_include("build_commit.h")
#include "build_commit.h"
#endif

#define LP_STRINGIFY_(x) #x
#define LP_STRINGIFY(x) LP_STRINGIFY_(x)

const char *lp_build_commit(void) {
#ifdef LP_BUILD_COMMIT
    return LP_STRINGIFY(LP_BUILD_COMMIT);
#else
    return "";
#endif
}
